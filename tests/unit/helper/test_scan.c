/* SPDX-License-Identifier: ISC */
/*
 * test_scan.c - the descendant scan (src/helper/exec/scan.h).
 *
 * Most tests inject an access function that denies by entry name, so they
 * mean the same as root and as an ordinary user:
 *   a name containing "noread" fails R_OK, "nowrite" fails W_OK, "nox"
 *   fails X_OK.
 * Two tests use the real faccessat(), as an unprivileged user (as root
 * they fork a child that becomes nobody).
 * The parallel walk is held to the single-threaded one: the same result
 * from 1, 2, 3 and 8 workers on generated trees, and a race against a
 * thread that swaps directories for symlinks out of the tree. make
 * check-tsan runs these under ThreadSanitizer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "scan.h"

#define NOBODY_UID 65534
#define NOBODY_GID 65534

/* ------------------------------------------------------------ fixture */

struct fix {
	char root[64];
	char outside[64];
};

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	snprintf(f->root, sizeof f->root, "/tmp/ruas-scan.XXXXXX");
	snprintf(f->outside, sizeof f->outside, "/tmp/ruas-scan-out.XXXXXX");
	if (!mkdtemp(f->root) || !mkdtemp(f->outside)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	rm_rf(f->root);
	rm_rf(f->outside);
	free(f);
	return 0;
}

static char *path_of(const char *root, const char *rel)
{
	char *p = NULL;
	assert_true(asprintf(&p, "%s/%s", root, rel) > 0);
	return p;
}

static void mk_file(const char *root, const char *rel, mode_t mode)
{
	char *p = path_of(root, rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		fail_msg("cannot create %s: %s", p, strerror(errno));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
	free(p);
}

static void mk_dir(const char *root, const char *rel, mode_t mode)
{
	char *p = path_of(root, rel);
	if (mkdir(p, 0700) < 0)
		fail_msg("cannot mkdir %s: %s", p, strerror(errno));
	assert_int_equal(chmod(p, mode), 0);
	free(p);
}

static void mk_link(const char *root, const char *rel, const char *target)
{
	char *p = path_of(root, rel);
	if (symlink(target, p) < 0)
		fail_msg("cannot symlink %s: %s", p, strerror(errno));
	free(p);
}

/* ----------------------------------------------------- injected access */

/* Thread-safe: with several workers the access function runs concurrently. */
struct probe_log {
	pthread_mutex_t lock;
	char **names;
	size_t n;
	unsigned int sleep_first_ms; /* sleep this long in the first call */
	unsigned long calls;
};

#define PROBE_LOG_INIT {.lock = PTHREAD_MUTEX_INITIALIZER}

static int deny_by_name(int dirfd, const char *name, int amode, void *ctx)
{
	struct probe_log *log = ctx;
	(void)dirfd;
	if (log) {
		pthread_mutex_lock(&log->lock);
		int first = log->calls++ == 0;
		char **nv = realloc(log->names, (log->n + 1) * sizeof *nv);
		if (nv) {
			log->names = nv;
			log->names[log->n++] = strdup(name);
		}
		unsigned int ms = log->sleep_first_ms;
		pthread_mutex_unlock(&log->lock);
		if (first && ms) {
			struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
	if ((amode & R_OK) && strstr(name, "noread"))
		return -1;
	if ((amode & W_OK) && strstr(name, "nowrite"))
		return -1;
	if ((amode & X_OK) && strstr(name, "nox"))
		return -1;
	return 0;
}

static void log_free(struct probe_log *log)
{
	for (size_t i = 0; i < log->n; i++)
		free(log->names[i]);
	free(log->names);
	log->names = NULL;
	log->n = 0;
	log->calls = 0;
}

/* ------------------------------------------------------ expectations */

struct want {
	const char *rel;
	unsigned int flags;
};

struct want_full {
	char *path;
	unsigned int flags;
};

static int cmp_want(const void *a, const void *b)
{
	return strcmp(((const struct want_full *)a)->path,
		      ((const struct want_full *)b)->path);
}

static void dump(const struct scan_result *r)
{
	for (size_t i = 0; i < r->nitems; i++)
		print_message("  got item %zu: \"%s\" flags %u\n", i, r->items[i].path,
			      r->items[i].flags);
}

/* The result holds exactly these items, in strcmp order. */
static void assert_items(const struct scan_result *r, const char *root,
			 const struct want *w, size_t nw)
{
	struct want_full *full = calloc(nw + 1, sizeof *full);
	assert_non_null(full);
	for (size_t i = 0; i < nw; i++) {
		full[i].path = path_of(root, w[i].rel);
		full[i].flags = w[i].flags;
	}
	qsort(full, nw, sizeof *full, cmp_want);
	if (r->nitems != nw) {
		dump(r);
		fail_msg("%zu items, expected %zu", r->nitems, nw);
	}
	for (size_t i = 0; i < nw; i++) {
		if (strcmp(r->items[i].path, full[i].path) != 0) {
			dump(r);
			fail_msg("item %zu is \"%s\", expected \"%s\"", i, r->items[i].path,
				 full[i].path);
		}
		if (r->items[i].flags != full[i].flags)
			fail_msg("item \"%s\" has flags %u, expected %u", full[i].path,
				 r->items[i].flags, full[i].flags);
		assert_int_not_equal(r->items[i].uid, REPORT_UID_UNKNOWN);
	}
	for (size_t i = 0; i < nw; i++)
		free(full[i].path);
	free(full);
}

static void scan_injected(const char *root, const char *const *prune, size_t cap,
			  struct probe_log *log, struct scan_result *r)
{
	struct scan_options o = {.prune = prune, .cap = cap, .access = deny_by_name, .ctx = log};
	if (scan_tree(root, &o, r) != 0)
		fail_msg("scan_tree(%s) failed: %s", root, strerror(errno));
}


/* ------------------------------------------------------------- tests */

static void test_reasons_per_type(void **state)
{
	struct fix *f = *state;
	const char *R = f->root;
	mk_file(R, "ok.txt", 0644);
	mk_file(R, "noread.txt", 0640);
	mk_file(R, "nowrite.txt", 0444);
	mk_file(R, "noread-nowrite.txt", 0400);
	mk_file(R, "nox.txt", 0644); /* files are not judged on X */
	mk_dir(R, "noread-dir", 0755);
	mk_file(R, "noread-dir/noread-inner.txt", 0644);
	mk_dir(R, "nox-dir", 0755);
	mk_file(R, "nox-dir/noread-inner.txt", 0644);
	mk_dir(R, "noread-nox-dir", 0700);
	mk_file(R, "noread-nox-dir/noread-inner.txt", 0644);
	mk_dir(R, "nowrite-dir", 0755); /* dirs are not judged on W */
	mk_file(R, "nowrite-dir/noread-deep.txt", 0644);
	mk_dir(R, "sub", 0755);
	mk_dir(R, "sub/sub2", 0755);
	mk_file(R, "sub/sub2/noread-deep.txt", 0644);
	mk_file(R, "sub/sub2/fine", 0644);

	struct scan_result r;
	scan_injected(R, NULL, 50, NULL, &r);
	const struct want w[] = {
		{"noread.txt", SCAN_NOT_READABLE},
		{"nowrite.txt", SCAN_NOT_WRITABLE},
		{"noread-nowrite.txt", SCAN_NOT_READABLE | SCAN_NOT_WRITABLE},
		{"noread-dir", SCAN_NOT_READABLE},
		{"nox-dir", SCAN_NOT_SEARCHABLE},
		{"noread-nox-dir", SCAN_NOT_READABLE | SCAN_NOT_SEARCHABLE},
		{"nowrite-dir/noread-deep.txt", SCAN_NOT_READABLE},
		{"sub/sub2/noread-deep.txt", SCAN_NOT_READABLE},
	};
	assert_items(&r, R, w, sizeof w / sizeof *w);
	assert_int_equal(r.total, 8);
	/*
	 * Entries visited: 5 files, 5 dirs at the top, nowrite-dir's file,
	 * sub2 and its two files. Nothing inside the flagged dirs.
	 */
	assert_int_equal(r.entries, 14);
	assert_int_equal(r.incomplete, 0);

	/* Mode and owner come from the entry itself: the owner as its uid (no user database here). */
	for (size_t i = 0; i < r.nitems; i++) {
		assert_int_equal(r.items[i].uid, geteuid());
		assert_null(r.items[i].owner);
		if (strstr(r.items[i].path, "/noread-nowrite.txt"))
			assert_int_equal(r.items[i].mode, 0400);
		if (strstr(r.items[i].path, "/nowrite.txt"))
			assert_int_equal(r.items[i].mode, 0444);
		if (strstr(r.items[i].path, "/noread-nox-dir"))
			assert_int_equal(r.items[i].mode, 0700);
	}
	scan_result_free(&r);
	assert_null(r.items);
	assert_int_equal(r.nitems, 0);
}

static void test_symlinks_never_followed_or_judged(void **state)
{
	struct fix *f = *state;
	const char *R = f->root;
	/* Outside: a directory full of things that would be flagged. */
	mk_file(f->outside, "noread-secret", 0600);
	mk_dir(f->outside, "noread-dir", 0700);
	mk_dir(f->outside, "deeper", 0755);
	mk_file(f->outside, "deeper/noread-x", 0600);

	mk_file(R, "ok.txt", 0644);
	mk_link(R, "link-out", f->outside);
	mk_link(R, "noread-link", "ok.txt");
	mk_link(R, "nox-link-dir", f->outside);
	mk_link(R, "noread-dangling", "/nonexistent/ruas/target");
	mk_dir(R, "d", 0755);
	mk_link(R, "d/noread-up", "..");

	struct probe_log log = PROBE_LOG_INIT;
	struct scan_result r;
	scan_injected(R, NULL, 50, &log, &r);
	if (r.nitems != 0) {
		dump(&r);
		fail_msg("symlinks were reported or followed");
	}
	assert_int_equal(r.total, 0);
	assert_int_equal(r.entries, 7);
	/* The access function never saw a symlink. */
	for (size_t i = 0; i < log.n; i++)
		if (strstr(log.names[i], "link") || strstr(log.names[i], "dangling") ||
		    strstr(log.names[i], "noread-up"))
			fail_msg("access was probed on symlink \"%s\"", log.names[i]);
	/* But it did see the regular entries. */
	int saw_ok = 0;
	for (size_t i = 0; i < log.n; i++)
		saw_ok |= strcmp(log.names[i], "ok.txt") == 0;
	assert_true(saw_ok);
	log_free(&log);
	scan_result_free(&r);
}

static void test_prune_names_not_entered(void **state)
{
	struct fix *f = *state;
	const char *R = f->root;
	mk_dir(R, "node_modules", 0755);
	mk_file(R, "node_modules/noread.js", 0644);
	mk_dir(R, ".git", 0755);
	mk_file(R, ".git/noread-obj", 0644);
	mk_dir(R, "custom-prune", 0755);
	mk_file(R, "custom-prune/noread.x", 0644);
	mk_dir(R, "keep", 0755);
	mk_file(R, "keep/noread.y", 0644);
	mk_dir(R, "keep/node_modules", 0755);
	mk_file(R, "keep/node_modules/noread.z", 0644);
	/* A pruned name is skipped whatever it is, even when it would be flagged. */
	mk_dir(R, "noread-pruned", 0755);

	const char *const prune[] = {"node_modules", ".git", "custom-prune",
				     "noread-pruned", NULL};
	struct scan_result r;
	scan_injected(R, prune, 50, NULL, &r);
	const struct want w[] = {{"keep/noread.y", SCAN_NOT_READABLE}};
	assert_items(&r, R, w, 1);
	assert_int_equal(r.total, 1);
	assert_int_equal(r.entries, 2); /* keep, keep/noread.y */
	scan_result_free(&r);

	/* Without the prune list every one of them is found. */
	scan_injected(R, NULL, 50, NULL, &r);
	const struct want all[] = {
		{"node_modules/noread.js", SCAN_NOT_READABLE},
		{".git/noread-obj", SCAN_NOT_READABLE},
		{"custom-prune/noread.x", SCAN_NOT_READABLE},
		{"keep/noread.y", SCAN_NOT_READABLE},
		{"keep/node_modules/noread.z", SCAN_NOT_READABLE},
		{"noread-pruned", SCAN_NOT_READABLE},
	};
	assert_items(&r, R, all, sizeof all / sizeof *all);
	scan_result_free(&r);
}

static void test_cap_keeps_smallest_paths(void **state)
{
	struct fix *f = *state;
	const char *R = f->root;
	struct want w[120];
	char rels[120][64];
	/* Created in a scrambled order, spread over two directories. */
	mk_dir(R, "m", 0755);
	for (int k = 0; k < 120; k++) {
		int i = (k * 7) % 120; /* 7 is coprime with 120: a permutation */
		if (i % 3 == 0)
			snprintf(rels[i], sizeof rels[i], "m/noread-%03d", i);
		else if (i % 2)
			snprintf(rels[i], sizeof rels[i], "noread-nowrite-%03d", i);
		else
			snprintf(rels[i], sizeof rels[i], "noread-%03d", i);
		mk_file(R, rels[i], 0644);
	}
	for (int i = 0; i < 120; i++) {
		w[i].rel = rels[i];
		w[i].flags = strstr(rels[i], "nowrite")
				     ? SCAN_NOT_READABLE | SCAN_NOT_WRITABLE
				     : SCAN_NOT_READABLE;
	}
	mk_file(R, "fine", 0644);

	/* All 120, for the reference order. */
	struct scan_result all;
	scan_injected(R, NULL, 200, NULL, &all);
	assert_items(&all, R, w, 120);
	assert_int_equal(all.total, 120);

	struct scan_result r;
	scan_injected(R, NULL, 50, NULL, &r);
	assert_int_equal(r.nitems, 50);
	assert_int_equal(r.total, 120); /* each path counted once */
	for (size_t i = 0; i < 50; i++) {
		assert_string_equal(r.items[i].path, all.items[i].path);
		assert_int_equal(r.items[i].flags, all.items[i].flags);
		if (i > 0)
			assert_true(strcmp(r.items[i - 1].path, r.items[i].path) < 0);
	}
	scan_result_free(&r);

	/* cap 1: the single smallest. */
	scan_injected(R, NULL, 1, NULL, &r);
	assert_int_equal(r.nitems, 1);
	assert_string_equal(r.items[0].path, all.items[0].path);
	assert_int_equal(r.total, 120);
	scan_result_free(&r);

	scan_result_free(&all);
}

/*
 * cap 0: every flagged path counted, none kept. Run last: with cap 0 there
 * are no items and scan_tree() must not pass a NULL array to qsort(), which
 * is undefined behaviour that UBSan (-fno-sanitize-recover) aborts on.
 */
static void test_cap_zero_counts_only(void **state)
{
	struct fix *f = *state;
	const char *R = f->root;
	char rel[32];
	for (int i = 0; i < 5; i++) {
		snprintf(rel, sizeof rel, "noread-%d", i);
		mk_file(R, rel, 0644);
	}
	mk_file(R, "fine", 0644);
	struct scan_result r;
	scan_injected(R, NULL, 0, NULL, &r);
	assert_int_equal(r.nitems, 0);
	assert_int_equal(r.total, 5);
	assert_int_equal(r.entries, 6);
	scan_result_free(&r);
}

static void test_time_budget(void **state)
{
	struct fix *f = *state;
	const char *R = f->root;
	char rel[32];
	for (int i = 0; i < 1100; i++) {
		snprintf(rel, sizeof rel, "f%04d", i);
		mk_file(R, rel, 0644);
	}
	/* seconds = 0: no budget, however slow the probes are. */
	struct probe_log log = PROBE_LOG_INIT;
	log.sleep_first_ms = 1200;
	struct scan_options o = {.cap = 50, .access = deny_by_name, .ctx = &log};
	struct scan_result r;
	assert_int_equal(scan_tree(R, &o, &r), 0);
	assert_int_equal(r.incomplete, 0);
	assert_int_equal(r.entries, 1100);
	scan_result_free(&r);
	log_free(&log);

	/* seconds = 1 and a first probe that takes longer: stopped, and said so. */
	log.sleep_first_ms = 1200;
	o.seconds = 1;
	o.ctx = &log;
	assert_int_equal(scan_tree(R, &o, &r), 0);
	assert_int_equal(r.incomplete, 1);
	assert_true(r.entries < 1100);
	assert_true(r.entries > 0);
	scan_result_free(&r);
	log_free(&log);

	/* seconds = 1 and fast probes: complete. */
	o.seconds = 1;
	o.ctx = NULL;
	assert_int_equal(scan_tree(R, &o, &r), 0);
	assert_int_equal(r.incomplete, 0);
	assert_int_equal(r.entries, 1100);
	scan_result_free(&r);
}

/* A chain root/d/d/.../d of n directories, with noread-bottom at the end. */
static void mk_chain(const char *root, unsigned n)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(mkdirat(fd, "d", 0755), 0);
		int next = openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		assert_true(next >= 0);
		close(fd);
		fd = next;
	}
	int f = openat(fd, "noread-bottom", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0000);
	assert_true(f >= 0);
	close(f);
	close(fd);
}

/* The rest of the tree is still walked when one branch is too deep. */
static void test_depth_limit(void **state)
{
	struct fix *f = *state;
	const char *R = f->root;
	mk_chain(R, 3);
	mk_file(R, "zz-noread", 0000);
	struct probe_log log = PROBE_LOG_INIT;
	struct scan_options o = {.cap = 50, .access = deny_by_name, .ctx = &log, .max_depth = 3};
	struct scan_result r;

	/* Three levels entered: d, d/d, d/d/d; the file below is judged. */
	assert_int_equal(scan_tree(R, &o, &r), 0);
	assert_int_equal(r.incomplete, 0);
	assert_int_equal(r.total, 2);
	char *want = path_of(R, "d/d/d/noread-bottom");
	assert_string_equal(r.items[0].path, want);
	free(want);
	scan_result_free(&r);
	log_free(&log);

	/* Two: d/d/d is seen but not entered; the sibling is still judged. */
	o.max_depth = 2;
	o.ctx = &log;
	assert_int_equal(scan_tree(R, &o, &r), 0);
	assert_int_equal(r.incomplete, 1);
	assert_int_equal(r.total, 1);
	want = path_of(R, "zz-noread");
	assert_string_equal(r.items[0].path, want);
	free(want);
	scan_result_free(&r);
	log_free(&log);
}

/*
 * The default limit on a real tree deeper than it: the scan says it is
 * incomplete, and a higher max_depth walks the whole chain.
 */
static void test_depth_limit_default(void **state)
{
	struct fix *f = *state;
	mk_chain(f->root, SCAN_MAX_DEPTH + 10);
	struct scan_options o = {.cap = 50};
	struct scan_result r;
	assert_int_equal(scan_tree(f->root, &o, &r), 0);
	assert_int_equal(r.incomplete, 1);
	assert_int_equal(r.entries, SCAN_MAX_DEPTH + 1);
	scan_result_free(&r);
	o.max_depth = SCAN_MAX_DEPTH + 10;
	assert_int_equal(scan_tree(f->root, &o, &r), 0);
	assert_int_equal(r.incomplete, 0);
	assert_int_equal(r.entries, SCAN_MAX_DEPTH + 11);
	scan_result_free(&r);
}

static void test_hostile_names_byte_exact(void **state)
{
	struct fix *f = *state;
	const char *R = f->root;
	static const char *const names[] = {
		"noread with spaces", "noread 'single' \"double\"", "noread $HOME $(id) `id`",
		"noread\nnewline", "noread\ttab\x1b[31m", "noread\\back\\slash",
		"noread-\xff\xfe-invalid-utf8", "noread*glob?[x]", NULL};
	struct want w[9];
	size_t n = 0;
	for (const char *const *nm = names; *nm; nm++, n++) {
		mk_file(R, *nm, 0644);
		w[n].rel = *nm;
		w[n].flags = SCAN_NOT_READABLE;
	}
	mk_dir(R, "dir with\nnewline", 0755);
	mk_file(R, "dir with\nnewline/noread \"x\"", 0644);
	w[n].rel = "dir with\nnewline/noread \"x\"";
	w[n].flags = SCAN_NOT_READABLE;
	n++;
	assert_int_equal(n, sizeof w / sizeof *w);
	struct scan_result r;
	scan_injected(R, NULL, 50, NULL, &r);
	assert_items(&r, R, w, n);
	scan_result_free(&r);
}

static void test_root_forms_and_errors(void **state)
{
	struct fix *f = *state;
	const char *R = f->root;
	mk_file(R, "noread", 0644);
	char *slash = NULL;
	assert_true(asprintf(&slash, "%s/", R) > 0);
	struct scan_result r;
	scan_injected(slash, NULL, 50, NULL, &r);
	assert_int_equal(r.nitems, 1);
	char *want = path_of(R, "noread");
	assert_string_equal(r.items[0].path, want); /* one slash, not two */
	free(want);
	free(slash);
	scan_result_free(&r);

	struct scan_options o = {.cap = 50, .access = deny_by_name};
	errno = 0;
	assert_int_equal(scan_tree("/nonexistent/ruas/scan/root", &o, &r), -1);
	assert_int_equal(errno, ENOENT);
	char *file = path_of(R, "noread");
	assert_int_equal(scan_tree(file, &o, &r), -1);
	assert_int_equal(errno, ENOTDIR);
	free(file);

}

/* ------------------------------------------------- real faccessat */

/*
 * Modes chosen so that the owner and everyone else get the same answer:
 * the same expectations hold for an unprivileged owner and for nobody.
 */
static void build_real_tree(const char *R)
{
	mk_file(R, "ok-file", 0666);
	mk_file(R, "secret", 0000);
	mk_file(R, "ro", 0444);
	mk_dir(R, "closed-dir", 0700);
	mk_file(R, "closed-dir/inner", 0000);
	assert_int_equal(chmod(R, 0755), 0);
	char *p = path_of(R, "closed-dir");
	assert_int_equal(chmod(p, 0000), 0);
	free(p);
	mk_dir(R, "xonly-dir", 0700);
	mk_file(R, "xonly-dir/inner", 0000);
	p = path_of(R, "xonly-dir");
	assert_int_equal(chmod(p, 0111), 0);
	free(p);
	mk_dir(R, "open-dir", 0777);
	mk_file(R, "open-dir/inner-secret", 0000);
	mk_file(R, "open-dir/fine", 0666);
	mk_link(R, "link-to-secret", "secret");
}

struct real_want {
	const char *rel;
	unsigned int flags;
	unsigned int mode;
};

static const struct real_want real_want[] = {
	/* strcmp order */
	{"closed-dir", SCAN_NOT_READABLE | SCAN_NOT_SEARCHABLE, 0000},
	{"open-dir/inner-secret", SCAN_NOT_READABLE | SCAN_NOT_WRITABLE, 0000},
	{"ro", SCAN_NOT_WRITABLE, 0444},
	{"secret", SCAN_NOT_READABLE | SCAN_NOT_WRITABLE, 0000},
	{"xonly-dir", SCAN_NOT_READABLE, 0111},
};

/* Plain checks, usable in a forked child: 0 or a code naming the failure. */
static int check_real_scan(const char *R, uid_t owner)
{
	struct scan_options o = {.cap = 50};
	struct scan_result r;
	size_t nw = sizeof real_want / sizeof *real_want;
	int rc = 0;
	if (scan_tree(R, &o, &r) != 0) {
		fprintf(stderr, "scan_tree failed: %s\n", strerror(errno));
		return 10;
	}
	if (r.nitems != nw || r.total != nw) {
		fprintf(stderr, "got %zu items (total %llu), expected %zu:\n", r.nitems,
			r.total, nw);
		for (size_t i = 0; i < r.nitems; i++)
			fprintf(stderr, "  %s flags %u\n", r.items[i].path, r.items[i].flags);
		rc = 11;
	}
	for (size_t i = 0; rc == 0 && i < nw; i++) {
		char want[512];
		snprintf(want, sizeof want, "%s/%s", R, real_want[i].rel);
		if (strcmp(r.items[i].path, want) != 0 ||
		    r.items[i].flags != real_want[i].flags ||
		    r.items[i].mode != real_want[i].mode || r.items[i].uid != owner) {
			fprintf(stderr,
				"item %zu: got \"%s\" flags %u mode %o owner %u; expected "
				"\"%s\" flags %u mode %o owner %u\n",
				i, r.items[i].path, r.items[i].flags, r.items[i].mode,
				r.items[i].uid, want, real_want[i].flags, real_want[i].mode,
				(unsigned)owner);
			rc = 12;
		}
	}
	/* open-dir's contents were visited: 7 top entries + 2 inside. */
	if (rc == 0 && r.entries != 9) {
		fprintf(stderr, "visited %llu entries, expected 9\n", r.entries);
		rc = 13;
	}
	if (rc == 0 && r.incomplete) {
		fprintf(stderr, "scan reported incomplete\n");
		rc = 14;
	}
	scan_result_free(&r);
	return rc;
}

struct real_args {
	const char *root;
	uid_t owner;
};

static int real_scan_child(const void *arg)
{
	const struct real_args *a = arg;
	return check_real_scan(a->root, a->owner);
}

/*
 * fn(arg) as an unprivileged user: here when we are not root, else in a
 * forked child that became nobody (root passes every access check). A
 * nonzero code fails the test, naming what; no way to nobody skips it.
 */
static void run_unprivileged(int (*fn)(const void *), const void *arg, const char *what)
{
	if (geteuid() != 0) {
		int rc = fn(arg);
		if (rc != 0)
			fail_msg("%s scan failed with code %d (see stderr)", what, rc);
		return;
	}

	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgroups(0, NULL) < 0 || setgid(NOBODY_GID) < 0 ||
		    setuid(NOBODY_UID) < 0) {
			fprintf(stderr, "cannot become uid %d: %s\n", NOBODY_UID,
				strerror(errno));
			_exit(77);
		}
		if (getuid() == 0 || geteuid() == 0)
			_exit(78);
		_exit(fn(arg));
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77) {
		print_message("SKIP: running as root but cannot switch to uid %d to "
			      "test real access checks\n", NOBODY_UID);
		skip();
	}
	if (WEXITSTATUS(st) != 0)
		fail_msg("%s scan as uid %d failed with code %d (see stderr)", what,
			 NOBODY_UID, WEXITSTATUS(st));
}

static void test_real_access(void **state)
{
	struct fix *f = *state;
	build_real_tree(f->root);
	struct real_args a = {f->root, geteuid()}; /* the tree's owner */
	run_unprivileged(real_scan_child, &a, "real-access");
}

/* ---------------------------------------------------- parallel walk */

/* NULL when a and b report the same; else what differs (a static buffer). */
static const char *diff_result(const struct scan_result *a, const struct scan_result *b)
{
	static char why[1024];
	if (a->nitems != b->nitems || a->total != b->total || a->entries != b->entries ||
	    a->incomplete != b->incomplete) {
		snprintf(why, sizeof why,
			 "items %zu/%zu, total %llu/%llu, entries %llu/%llu, incomplete %d/%d",
			 a->nitems, b->nitems, a->total, b->total, a->entries, b->entries,
			 a->incomplete, b->incomplete);
		return why;
	}
	for (size_t i = 0; i < a->nitems; i++) {
		const struct scan_item *x = &a->items[i], *y = &b->items[i];
		if (strcmp(x->path, y->path) != 0 || x->flags != y->flags || x->mode != y->mode ||
		    x->uid != y->uid) {
			snprintf(why, sizeof why, "item %zu: \"%s\" %u %o %u / \"%s\" %u %o %u", i,
				 x->path, x->flags, x->mode, x->uid, y->path, y->flags, y->mode,
				 y->uid);
			return why;
		}
	}
	return NULL;
}

/* access NULL = the real faccessat. 0 or -1 with errno, as scan_tree(). */
static int scan_with(const char *root, const char *const *prune, unsigned threads,
		     unsigned max_depth, scan_access_fn access, struct scan_result *r)
{
	struct scan_options o = {.prune = prune, .cap = 50, .access = access,
				 .threads = threads, .max_depth = max_depth};
	return scan_tree(root, &o, r);
}

/*
 * The tree scanned with 2, 3 and 8 workers, twice with 2 and 8, reports
 * exactly what one worker does. Returns the handoffs seen, so a caller can
 * check that work was in fact shared.
 */
static unsigned long long assert_parallel_same(const char *root, const char *const *prune,
					       unsigned max_depth)
{
	static const unsigned threads[] = {2, 3, 8};
	static const int runs[] = {2, 1, 2};
	struct scan_result ref, r;
	unsigned long long handoffs = 0;
	if (scan_with(root, prune, 1, max_depth, deny_by_name, &ref) != 0)
		fail_msg("scan_tree(%s) failed: %s", root, strerror(errno));
	assert_int_equal(ref.threads, 1);
	assert_int_equal(ref.handoffs, 0);
	for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
		for (int run = 0; run < runs[t]; run++) {
			if (scan_with(root, prune, threads[t], max_depth, deny_by_name, &r) != 0)
				fail_msg("scan_tree(%s) failed: %s", root, strerror(errno));
			/* RLIMIT_NOFILE may allow fewer (see scan.h), never more. */
			assert_true(r.threads >= 1 && r.threads <= threads[t]);
			const char *why = diff_result(&ref, &r);
			if (why) {
				dump(&r);
				fail_msg("%u workers (run %d) differ from one: %s", r.threads, run,
					 why);
			}
			handoffs += r.handoffs;
			scan_result_free(&r);
		}
	}
	scan_result_free(&ref);
	return handoffs;
}

/* A small deterministic generator, so a failing tree can be rebuilt. */
static unsigned rnd(unsigned long long *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(*s >> 33);
}

/*
 * A random tree below root/rel: files and directories whose names make
 * deny_by_name refuse some of them, symlinks out of the tree, and pruned
 * names. real: also give the entries modes that refuse the same to every
 * user but root (files 0000 and 0444, directories 0000 and 0111).
 */
static void mk_random(const char *root, const char *rel, unsigned depth,
		      unsigned long long *seed, int real) /* NOLINT(misc-no-recursion) */
{
	static const char *const ftag[] = {"", "", "", "", "noread-", "nowrite-",
					   "noread-nowrite-", "nox-"};
	static const char *const dtag[] = {"", "", "", "", "", "noread-", "nox-"};
	static const mode_t fmode[] = {0666, 0666, 0666, 0666, 0000, 0444, 0000, 0666};
	static const mode_t dmode[] = {0777, 0777, 0777, 0777, 0777, 0111, 0000};
	char sub[512];
	unsigned nf = rnd(seed) % 12, nd = depth < 5 ? rnd(seed) % 4 : 0;
	for (unsigned i = 0; i < nf; i++) {
		unsigned t = rnd(seed) % 8;
		snprintf(sub, sizeof sub, "%s/%sf%u", rel, ftag[t], i);
		mk_file(root, sub, real ? fmode[t] : 0644);
	}
	if (rnd(seed) % 4 == 0) {
		snprintf(sub, sizeof sub, "%s/noread-link", rel);
		mk_link(root, sub, "/etc");
	}
	if (rnd(seed) % 6 == 0) {
		snprintf(sub, sizeof sub, "%s/node_modules", rel);
		mk_dir(root, sub, 0755);
		snprintf(sub, sizeof sub, "%s/node_modules/noread-pruned", rel);
		mk_file(root, sub, 0000);
	}
	for (unsigned i = 0; i < nd; i++) {
		unsigned t = rnd(seed) % 7;
		snprintf(sub, sizeof sub, "%s/%sd%u", rel, dtag[t], i);
		mk_dir(root, sub, 0755);
		mk_random(root, sub, depth + 1, seed, real);
		if (real) {
			char *p = path_of(root, sub);
			assert_int_equal(chmod(p, dmode[t]), 0);
			free(p);
		}
	}
}

static const char *const test_prune[] = {"node_modules", ".git", NULL};

static void test_parallel_random_trees(void **state)
{
	struct fix *f = *state;
	for (unsigned long long s = 1; s <= 4; s++) {
		char rel[32];
		unsigned long long seed = s;
		snprintf(rel, sizeof rel, "t%llu", s);
		mk_dir(f->root, rel, 0755);
		mk_random(f->root, rel, 0, &seed, 0);
		char *p = path_of(f->root, rel);
		assert_parallel_same(p, test_prune, 0);
		assert_parallel_same(p, NULL, 0); /* pruned names entered too */
		assert_parallel_same(p, test_prune, 2); /* cut at depth 2: incomplete */
		free(p);
	}
	/* All of them at once: over 50 refused paths, so the cap selects. */
	struct scan_result r;
	assert_int_equal(scan_with(f->root, NULL, 1, 0, deny_by_name, &r), 0);
	assert_true(r.total > 50);
	assert_int_equal(r.nitems, 50);
	scan_result_free(&r);
	assert_parallel_same(f->root, test_prune, 0);
}

/* 120 directories of 15 files, every 7th refused: the work is shared. */
static void test_parallel_wide_tree(void **state)
{
	struct fix *f = *state;
	char rel[64];
	for (int d = 0; d < 120; d++) {
		snprintf(rel, sizeof rel, "d%03d", (d * 7) % 120);
		mk_dir(f->root, rel, 0755);
		for (int i = 0; i < 15; i++) {
			snprintf(rel, sizeof rel, "d%03d/%sf%02d", (d * 7) % 120,
				 (d + i) % 7 ? "" : "noread-", i);
			mk_file(f->root, rel, 0644);
		}
	}
	unsigned long long handoffs = assert_parallel_same(f->root, NULL, 0);
	assert_true(handoffs > 0); /* the parallel path did run */
	struct scan_result r;
	assert_int_equal(scan_with(f->root, NULL, 8, 0, deny_by_name, &r), 0);
	assert_int_equal(r.entries, 120 * 16);
	assert_int_equal(r.nitems, 50);
	assert_int_equal(r.incomplete, 0);
	scan_result_free(&r);
}

/* Chains below forks: deep, and cut by max_depth on some branches only. */
static void test_parallel_deep_tree(void **state)
{
	struct fix *f = *state;
	int rfd = open(f->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(rfd >= 0);
	for (int c = 0; c < 4; c++) {
		char name[32];
		snprintf(name, sizeof name, "c%d", c);
		assert_int_equal(mkdirat(rfd, name, 0755), 0);
		int fd = openat(rfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		assert_true(fd >= 0);
		for (int lvl = 0; lvl < 40 + 10 * c; lvl++) {
			snprintf(name, sizeof name, "%s%d", lvl % 9 ? "f" : "noread-", lvl);
			int x = openat(fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			assert_true(x >= 0);
			close(x);
			if (lvl % 5 == 0) /* a side branch */
				assert_int_equal(mkdirat(fd, "side", 0755), 0);
			assert_int_equal(mkdirat(fd, "d", 0755), 0);
			int next = openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			assert_true(next >= 0);
			close(fd);
			fd = next;
		}
		close(fd);
	}
	close(rfd);
	assert_parallel_same(f->root, NULL, 0);
	assert_parallel_same(f->root, NULL, 45); /* cuts c1..c3, not c0 */
	struct scan_result r;
	assert_int_equal(scan_with(f->root, NULL, 4, 45, deny_by_name, &r), 0);
	assert_int_equal(r.incomplete, 1);
	scan_result_free(&r);
	assert_int_equal(scan_with(f->root, NULL, 4, 0, deny_by_name, &r), 0);
	assert_int_equal(r.incomplete, 0);
	scan_result_free(&r);
}

/* The real faccessat on chmod-made refusals: 0 or a code, for a child. */
static int check_parallel_real(const void *arg)
{
	const char *R = arg;
	struct scan_result ref, r;
	if (scan_with(R, test_prune, 1, 0, NULL, &ref) != 0)
		return 20;
	if (ref.total == 0 || ref.incomplete) {
		fprintf(stderr, "real scan: total %llu, incomplete %d\n", ref.total,
			ref.incomplete);
		scan_result_free(&ref);
		return 21;
	}
	int rc = 0;
	for (unsigned t = 2; rc == 0 && t <= 8; t *= 2) {
		if (scan_with(R, test_prune, t, 0, NULL, &r) != 0) {
			rc = 22;
			break;
		}
		const char *why = diff_result(&ref, &r);
		if (why) {
			fprintf(stderr, "%u workers differ from one: %s\n", r.threads, why);
			rc = 23;
		}
		scan_result_free(&r);
	}
	scan_result_free(&ref);
	return rc;
}

/*
 * Unreadable and unsearchable directories made with chmod, judged by the
 * kernel, as an unprivileged user (run_unprivileged()).
 */
static void test_parallel_real_access(void **state)
{
	struct fix *f = *state;
	unsigned long long seed = 42;
	assert_int_equal(chmod(f->root, 0755), 0);
	mk_dir(f->root, "t", 0777);
	mk_random(f->root, "t", 0, &seed, 1);
	mk_dir(f->root, "closed", 0777);
	mk_file(f->root, "closed/inner", 0666);
	char *p = path_of(f->root, "closed");
	assert_int_equal(chmod(p, 0000), 0);
	free(p);
	run_unprivileged(check_parallel_real, f->root, "parallel real-access");
}

/* With several workers the time budget still stops the walk and says so. */
static void test_parallel_time_budget(void **state)
{
	struct fix *f = *state;
	char rel[32];
	for (int d = 0; d < 2; d++) {
		snprintf(rel, sizeof rel, "d%d", d);
		mk_dir(f->root, rel, 0755);
		for (int i = 0; i < 1100; i++) {
			snprintf(rel, sizeof rel, "d%d/f%04d", d, i);
			mk_file(f->root, rel, 0644);
		}
	}
	struct probe_log log = PROBE_LOG_INIT;
	log.sleep_first_ms = 1200;
	struct scan_options o = {.cap = 50, .access = deny_by_name, .ctx = &log,
				 .seconds = 1, .threads = 4};
	struct scan_result r;
	assert_int_equal(scan_tree(f->root, &o, &r), 0);
	assert_int_equal(r.incomplete, 1);
	assert_true(r.entries < 2 * 1101);
	scan_result_free(&r);
	log_free(&log);
	o.ctx = NULL;
	assert_int_equal(scan_tree(f->root, &o, &r), 0);
	assert_int_equal(r.incomplete, 0);
	assert_int_equal(r.entries, 2 * 1101);
	scan_result_free(&r);
}

/*
 * A descriptor limit that cannot hold eight workers' max_depth directories:
 * fewer workers run, and the walk still ends complete, not cut by EMFILE.
 */
static void test_parallel_fd_budget(void **state)
{
	struct fix *f = *state;
	for (int c = 0; c < 4; c++) {
		char rel[16];
		snprintf(rel, sizeof rel, "c%d", c);
		mk_dir(f->root, rel, 0755);
		char *p = path_of(f->root, rel);
		mk_chain(p, 120);
		free(p);
	}
	struct scan_result ref, r;
	assert_int_equal(scan_with(f->root, NULL, 1, 0, deny_by_name, &ref), 0);
	assert_int_equal(ref.incomplete, 0);
	struct rlimit old, low;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = 400;
	if (old.rlim_max < low.rlim_cur) {
		scan_result_free(&ref);
		skip();
	}
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	int rc = scan_with(f->root, NULL, 8, 0, deny_by_name, &r);
	int e = errno;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	if (rc != 0)
		fail_msg("scan_tree failed: %s", strerror(e));
	/* 400 holds one worker's 256 levels, not two. */
	assert_int_equal(r.threads, 1);
	const char *why = diff_result(&ref, &r);
	if (why)
		fail_msg("under the low limit: %s", why);
	scan_result_free(&r);
	/* A shallower max_depth lets more workers fit in the same limit. */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	rc = scan_with(f->root, NULL, 8, 30, deny_by_name, &r);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(rc, 0);
	assert_true(r.threads > 1);
	assert_true(r.threads * (30 + SCAN_FDS_PER_WORKER) <= 400);
	assert_int_equal(r.incomplete, 1);
	scan_result_free(&r);
	scan_result_free(&ref);
}

/* ------------------------------------------------------------- races */

#define RACE_PAIRS 6

struct race {
	int rootfd;
	int innerfd[RACE_PAIRS]; /* a<k> itself, whatever its name now */
	dev_t out_dev;
	ino_t out_ino[2];        /* the outside directory and its subdirectory */
	atomic_int stop;
	atomic_int leak;
	atomic_ulong swaps;
	char leaked[256];
};

/* Swaps a<k> with l<k> (a symlink out) and a<k>/sub with a<k>/lsub, nonstop. */
static void *swapper(void *arg)
{
	struct race *rc = arg;
	char a[16], l[16];
	while (!atomic_load(&rc->stop)) {
		for (int k = 0; k < RACE_PAIRS; k++) {
			snprintf(a, sizeof a, "a%d", k);
			snprintf(l, sizeof l, "l%d", k);
			if (renameat2(rc->rootfd, a, rc->rootfd, l, RENAME_EXCHANGE) == 0)
				atomic_fetch_add(&rc->swaps, 1);
			if (renameat2(rc->innerfd[k], "sub", rc->innerfd[k], "lsub",
				      RENAME_EXCHANGE) == 0)
				atomic_fetch_add(&rc->swaps, 1);
		}
	}
	return NULL;
}

/* Any probe in the outside directory, or of a name from there, is a leak. */
static int race_access(int dirfd, const char *name, int amode, void *ctx)
{
	struct race *rc = ctx;
	struct stat st;
	if (strstr(name, "secret") ||
	    (fstat(dirfd, &st) == 0 && st.st_dev == rc->out_dev &&
	     (st.st_ino == rc->out_ino[0] || st.st_ino == rc->out_ino[1]))) {
		if (atomic_exchange(&rc->leak, 1) == 0)
			snprintf(rc->leaked, sizeof rc->leaked, "%s", name);
	}
	return deny_by_name(dirfd, name, amode, NULL);
}

/*
 * A target swapping its directories for symlinks out of the tree while the
 * scan runs, with one worker and with several: nothing outside is ever
 * probed or reported, however the swaps fall between readdir, the probe,
 * the open and a handoff to another worker.
 */
static void test_race_symlink_swap(void **state)
{
	struct fix *f = *state;
	struct race *rc = calloc(1, sizeof *rc);
	assert_non_null(rc);
	mk_file(f->outside, "noread-secret", 0600);
	mk_dir(f->outside, "sub", 0755);
	mk_file(f->outside, "sub/noread-secret-deep", 0600);
	struct stat st;
	assert_int_equal(stat(f->outside, &st), 0);
	rc->out_dev = st.st_dev;
	rc->out_ino[0] = st.st_ino;
	char *osub = path_of(f->outside, "sub");
	assert_int_equal(stat(osub, &st), 0);
	rc->out_ino[1] = st.st_ino;
	rc->rootfd = open(f->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(rc->rootfd >= 0);
	for (int k = 0; k < RACE_PAIRS; k++) {
		char rel[64];
		snprintf(rel, sizeof rel, "a%d", k);
		mk_dir(f->root, rel, 0755);
		snprintf(rel, sizeof rel, "a%d/noread-mine", k);
		mk_file(f->root, rel, 0644);
		snprintf(rel, sizeof rel, "a%d/sub", k);
		mk_dir(f->root, rel, 0755);
		for (int i = 0; i < 40; i++) {
			snprintf(rel, sizeof rel, "a%d/sub/%sf%d", k, i % 10 ? "" : "noread-", i);
			mk_file(f->root, rel, 0644);
		}
		snprintf(rel, sizeof rel, "a%d/lsub", k);
		mk_link(f->root, rel, osub);
		snprintf(rel, sizeof rel, "l%d", k);
		mk_link(f->root, rel, f->outside);
		snprintf(rel, sizeof rel, "a%d", k);
		char *p = path_of(f->root, rel);
		rc->innerfd[k] = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		assert_true(rc->innerfd[k] >= 0);
		free(p);
	}
	free(osub);
	if (renameat2(rc->rootfd, "a0", rc->rootfd, "l0", RENAME_EXCHANGE) < 0) {
		int e = errno;
		for (int k = 0; k < RACE_PAIRS; k++)
			close(rc->innerfd[k]);
		close(rc->rootfd);
		free(rc);
		if (e == EINVAL || e == ENOSYS) {
			print_message("SKIP: no RENAME_EXCHANGE on this filesystem\n");
			skip();
		}
		fail_msg("renameat2: %s", strerror(e));
	}
	pthread_t tid;
	assert_int_equal(pthread_create(&tid, NULL, swapper, rc), 0);
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rounds = 0;
	unsigned long long handoffs = 0;
	const char *bad = NULL;
	char badpath[512] = "";
	for (;; rounds++) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		/* At least 20 rounds; then up to 400 or 3 s (valgrind is slow). */
		if (rounds >= 20 && (rounds >= 400 || now.tv_sec - t0.tv_sec >= 3))
			break;
		struct scan_options o = {.cap = 50, .access = race_access, .ctx = rc,
					 .threads = rounds % 2 ? 4 : 1};
		struct scan_result r;
		if (scan_tree(f->root, &o, &r) != 0) {
			bad = "scan_tree failed";
			break;
		}
		for (size_t i = 0; i < r.nitems && !bad; i++)
			if (strstr(r.items[i].path, "secret")) {
				bad = "reported a path outside the tree";
				snprintf(badpath, sizeof badpath, "%s", r.items[i].path);
			}
		handoffs += r.handoffs;
		scan_result_free(&r);
		if (bad || atomic_load(&rc->leak))
			break;
	}
	atomic_store(&rc->stop, 1);
	pthread_join(tid, NULL);
	for (int k = 0; k < RACE_PAIRS; k++)
		close(rc->innerfd[k]);
	close(rc->rootfd);
	print_message("race: %d rounds, %lu swaps, %llu handoffs\n", rounds,
		      (unsigned long)atomic_load(&rc->swaps), handoffs);
	int leak = atomic_load(&rc->leak);
	char leaked[256];
	snprintf(leaked, sizeof leaked, "%s", rc->leaked);
	free(rc);
	if (bad)
		fail_msg("%s %s", bad, badpath);
	if (leak)
		fail_msg("probed \"%s\" outside the tree through a swapped symlink", leaked);
	assert_true(handoffs > 0); /* the rounds on 4 workers did share directories */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reasons_per_type, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlinks_never_followed_or_judged,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_prune_names_not_entered, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cap_keeps_smallest_paths, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_time_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_depth_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_depth_limit_default, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile_names_byte_exact, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_root_forms_and_errors, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_real_access, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parallel_random_trees, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parallel_wide_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parallel_deep_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parallel_real_access, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parallel_time_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parallel_fd_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_race_symlink_swap, setup, teardown),
		/* Last: see the comment on the test. */
		cmocka_unit_test_setup_teardown(test_cap_zero_counts_only, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
