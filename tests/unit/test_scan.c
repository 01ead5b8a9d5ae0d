/*
 * test_scan.c - the descendant scan (helper/scan.h).
 *
 * Most tests inject an access function that denies by entry name, so they
 * mean the same as root and as an ordinary user:
 *   a name containing "noread" fails R_OK, "nowrite" fails W_OK, "nox"
 *   fails X_OK.
 * One test uses the real faccessat(), as an unprivileged user (as root it
 * forks a child that becomes nobody).
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
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

struct probe_log {
	char **names;
	size_t n;
	unsigned int sleep_first_ms; /* sleep this long in the first call */
	unsigned long calls;
};

static int deny_by_name(int dirfd, const char *name, int amode, void *ctx)
{
	struct probe_log *log = ctx;
	(void)dirfd;
	if (log) {
		if (log->calls++ == 0 && log->sleep_first_ms) {
			struct timespec ts = {log->sleep_first_ms / 1000,
					      (long)(log->sleep_first_ms % 1000) * 1000000L};
			nanosleep(&ts, NULL);
		}
		char **nv = realloc(log->names, (log->n + 1) * sizeof *nv);
		if (nv) {
			log->names = nv;
			log->names[log->n++] = strdup(name);
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
	memset(log, 0, sizeof *log);
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
		assert_non_null(r->items[i].owner);
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

static char *my_name(void)
{
	struct passwd *pw = getpwuid(geteuid());
	char *s = NULL;
	if (pw)
		s = strdup(pw->pw_name);
	else
		assert_true(asprintf(&s, "%u", (unsigned)geteuid()) > 0);
	assert_non_null(s);
	return s;
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

	/* Mode and owner come from the entry itself. */
	char *me = my_name();
	for (size_t i = 0; i < r.nitems; i++) {
		assert_string_equal(r.items[i].owner, me);
		if (strstr(r.items[i].path, "/noread-nowrite.txt"))
			assert_int_equal(r.items[i].mode, 0400);
		if (strstr(r.items[i].path, "/nowrite.txt"))
			assert_int_equal(r.items[i].mode, 0444);
		if (strstr(r.items[i].path, "/noread-nox-dir"))
			assert_int_equal(r.items[i].mode, 0700);
	}
	free(me);
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

	struct probe_log log = {0};
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
	struct probe_log log = {0};
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
	struct probe_log log = {0};
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

	char *name = scan_owner_name(0);
	assert_non_null(name);
	struct passwd *pw = getpwuid(0);
	if (pw)
		assert_string_equal(name, pw->pw_name);
	free(name);
	name = scan_owner_name(4000000123u);
	assert_string_equal(name, "4000000123");
	free(name);
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
static int check_real_scan(const char *R, const char *owner)
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
		    r.items[i].mode != real_want[i].mode ||
		    strcmp(r.items[i].owner, owner) != 0) {
			fprintf(stderr,
				"item %zu: got \"%s\" flags %u mode %o owner %s; expected "
				"\"%s\" flags %u mode %o owner %s\n",
				i, r.items[i].path, r.items[i].flags, r.items[i].mode,
				r.items[i].owner, want, real_want[i].flags, real_want[i].mode,
				owner);
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

static void test_real_access(void **state)
{
	struct fix *f = *state;
	const char *R = f->root;
	build_real_tree(R);
	char *owner = my_name(); /* the tree's owner, as the scan names it */

	if (geteuid() != 0) {
		int rc = check_real_scan(R, owner);
		free(owner);
		if (rc != 0)
			fail_msg("real-access scan failed with code %d (see stderr)", rc);
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
		int rc = check_real_scan(R, owner);
		free(owner); /* memcheck follows the child too */
		_exit(rc);
	}
	free(owner);
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
		fail_msg("real-access scan as uid %d failed with code %d (see stderr)",
			 NOBODY_UID, WEXITSTATUS(st));
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
		/* Last: see the comment on the test. */
		cmocka_unit_test_setup_teardown(test_cap_zero_counts_only, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
