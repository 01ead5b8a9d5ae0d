/* SPDX-License-Identifier: ISC */
/*
 * test_contain.c - containment on the real filesystem (src/common/contain.h) and
 * its public form, ruas_path_resolve_beneath().
 *
 * Every case runs twice: through openat2 (force_walk = 0) and through the
 * O_NOFOLLOW component walk (force_walk = 1). Both must give the same
 * answer, and a refusal must never hand back (or leak) a descriptor.
 *
 * The tree built by setup, under a mkdtemp() base:
 *   root/a/b/                 directory
 *   root/b/inner/             directory
 *   root/plainfile            regular file
 *   root/a/link       -> ../b               relative, stays inside
 *   root/a/flink      -> ../plainfile       relative, to a file inside
 *   root/a/escapelink -> ../../outside      relative, leads out
 *   root/a/outandin   -> ../../root/b       out of the root and back in
 *   root/a/abslink    -> /etc               absolute
 *   root/a/absin      -> <root>/b           absolute, but pointing inside
 *   root/a/magic      -> /proc/self/root    absolute, a magic link's name
 *   root/a/loopA      -> loopB, root/a/loopB -> loopA, root/a/loopself -> loopself
 *   root/a/dangling   -> nosuch
 *   rootevil/x/               a sibling whose name extends the root's
 *   outside/secret/           directory outside the root
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "contain.h"
#include "trusted_tree.h"
#include "fixture.h"
#include "ruas.h"

static const char *const mode_name[2] = {"openat2", "walk"};

#define BIT(r) (1u << (unsigned)(r))

static const char *res_name(enum contain_result r)
{
	switch (r) {
	case CONTAIN_OK:
		return "CONTAIN_OK";
	case CONTAIN_OUTSIDE:
		return "CONTAIN_OUTSIDE";
	case CONTAIN_ABSLINK:
		return "CONTAIN_ABSLINK";
	case CONTAIN_MISSING:
		return "CONTAIN_MISSING";
	case CONTAIN_ERROR:
		return "CONTAIN_ERROR";
	}
	return "(unknown result)";
}

/* ------------------------------------------------------------ fixture */

struct fix {
	char base[PATH_MAX];
	char root[PATH_MAX];    /* base/root */
	char outside[PATH_MAX]; /* base/outside */
	char bufs[8][PATH_MAX]; /* for at() */
	unsigned next;
};

/* dir/rel in one of a few rotating buffers: valid for the next 7 calls. */
static const char *at(struct fix *f, const char *dir, const char *rel)
{
	char *b = f->bufs[f->next++ % 8];
	size_t dl = strlen(dir), rl = strlen(rel);
	if (dl + 1 + rl >= PATH_MAX)
		fail_msg("path too long: %s/%s", dir, rel);
	memmove(b, dir, dl);
	b[dl] = '/';
	memcpy(b + dl + 1, rel, rl + 1);
	return b;
}

/* root/rel */
static const char *R(struct fix *f, const char *rel)
{
	return at(f, f->root, rel);
}

static void mk_dir(const char *p)
{
	if (mkdir(p, 0755) < 0)
		fail_msg("cannot mkdir %s: %s", p, strerror(errno));
}

static void mk_file(const char *p)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		fail_msg("cannot create %s: %s", p, strerror(errno));
	close(fd);
}

static void mk_link(const char *target, const char *p)
{
	if (symlink(target, p) < 0)
		fail_msg("cannot symlink %s -> %s: %s", p, target, strerror(errno));
}

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof *f);
	char tmpl[] = "/tmp/ruas-contain.XXXXXX";
	if (!f)
		return -1;
	/* Canonical, so that no symlink on the way to the root itself counts. */
	if (!mkdtemp(tmpl) || !realpath(tmpl, f->base)) {
		free(f);
		return -1;
	}
	if (snprintf(f->root, sizeof f->root, "%s/root", f->base) >= PATH_MAX ||
	    snprintf(f->outside, sizeof f->outside, "%s/outside", f->base) >= PATH_MAX) {
		rm_rf(tmpl);
		free(f);
		return -1;
	}
	*state = f;
	mk_dir(f->root);
	mk_dir(f->outside);
	mk_dir(at(f, f->outside, "secret"));
	mk_dir(at(f, f->base, "rootevil"));
	mk_dir(at(f, f->base, "rootevil/x"));
	mk_dir(R(f, "a"));
	mk_dir(R(f, "a/b"));
	mk_dir(R(f, "b"));
	mk_dir(R(f, "b/inner"));
	mk_file(R(f, "plainfile"));
	mk_link("../b", R(f, "a/link"));
	mk_link("../plainfile", R(f, "a/flink"));
	mk_link("../../outside", R(f, "a/escapelink"));
	mk_link("../../root/b", R(f, "a/outandin"));
	mk_link("/etc", R(f, "a/abslink"));
	mk_link(R(f, "b"), R(f, "a/absin"));
	mk_link("/proc/self/root", R(f, "a/magic"));
	mk_link("loopB", R(f, "a/loopA"));
	mk_link("loopA", R(f, "a/loopB"));
	mk_link("loopself", R(f, "a/loopself"));
	mk_link("nosuch", R(f, "a/dangling"));
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	rm_rf(f->base);
	free(f);
	return 0;
}

/* ------------------------------------------------------------ helpers */

/* Open descriptors of this process (the count, not the set). */
static int nfds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* fd is an O_PATH|O_CLOEXEC descriptor of the object `want` names. */
static void assert_fd_is(int fd, const char *want, const char *mode)
{
	struct stat a, b;
	int fl = fcntl(fd, F_GETFL);
	int fdfl = fcntl(fd, F_GETFD);
	if (fl < 0 || !(fl & O_PATH))
		fail_msg("%s: descriptor for %s is not O_PATH (flags %#x)", mode, want, fl);
	if (fdfl < 0 || !(fdfl & FD_CLOEXEC))
		fail_msg("%s: descriptor for %s is not close-on-exec", mode, want);
	assert_int_equal(fstat(fd, &a), 0);
	if (stat(want, &b) < 0)
		fail_msg("cannot stat %s: %s", want, strerror(errno));
	if (a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		fail_msg("%s: descriptor is inode %llu, %s is inode %llu", mode,
			 (unsigned long long)a.st_ino, want, (unsigned long long)b.st_ino);
}

/* `path` resolves under `root`, in both modes, to the object `want` names. */
static void expect_ok(const char *root, const char *path, const char *want)
{
	for (int w = 0; w <= 1; w++) {
		char why[512] = "(unset)";
		int before = nfds();
		int fd = -2;
		enum contain_result r = contain_resolve(root, path, &fd, why, sizeof why, w);
		if (r != CONTAIN_OK)
			fail_msg("%s: %s under %s: %s (%s), expected CONTAIN_OK", mode_name[w],
				 path, root, res_name(r), why);
		if (fd < 0)
			fail_msg("%s: %s: CONTAIN_OK without a descriptor", mode_name[w], path);
		assert_fd_is(fd, want, mode_name[w]);
		close(fd);
		assert_int_equal(nfds(), before);
		/* Without fd: the descriptor is closed, not leaked. */
		r = contain_resolve(root, path, NULL, why, sizeof why, w);
		if (r != CONTAIN_OK)
			fail_msg("%s: %s with fd NULL: %s (%s)", mode_name[w], path, res_name(r),
				 why);
		assert_int_equal(nfds(), before);
	}
}

/*
 * `path` is refused under `root` in both modes, with a result in `allowed`,
 * the same in both, no descriptor, and a `why` containing why_has. Returns
 * the result.
 */
static enum contain_result expect_refused(const char *root, const char *path,
					  unsigned allowed, const char *why_has)
{
	enum contain_result got[2];
	char whys[2][512];
	for (int w = 0; w <= 1; w++) {
		char *why = whys[w];
		snprintf(why, sizeof whys[w], "(unset)");
		int before = nfds();
		int fd = 12345; /* must become -1 */
		enum contain_result r = contain_resolve(root, path, &fd, why, sizeof whys[w], w);
		if (r == CONTAIN_OK) {
			if (fd >= 0)
				close(fd);
			fail_msg("%s: %s under %s resolved (CONTAIN_OK), expected a refusal",
				 mode_name[w], path, root);
		}
		if (!(allowed & BIT(r)))
			fail_msg("%s: %s under %s: %s (%s), not an expected result", mode_name[w],
				 path, root, res_name(r), why);
		if (fd != -1)
			fail_msg("%s: %s: refused, but *fd is %d, not -1", mode_name[w], path, fd);
		if (nfds() != before)
			fail_msg("%s: %s: refusal leaked a descriptor", mode_name[w], path);
		if (why_has && !strstr(why, why_has))
			fail_msg("%s: %s: why \"%s\" does not mention \"%s\"", mode_name[w], path,
				 why, why_has);
		got[w] = r;
	}
	if (got[0] != got[1])
		fail_msg("%s: openat2 gives %s (%s), walk gives %s (%s)", path,
			 res_name(got[0]), whys[0], res_name(got[1]), whys[1]);
	return got[0];
}

/* ------------------------------------------------------------ inside */

static void test_inside_resolves(void **state)
{
	struct fix *f = *state;
	char rootslash[PATH_MAX + 2];
	snprintf(rootslash, sizeof rootslash, "%s/", f->root);

	expect_ok(f->root, R(f, "a/b"), R(f, "a/b"));
	expect_ok(f->root, f->root, f->root);   /* the root itself */
	expect_ok(f->root, rootslash, f->root); /* ... with a slash */
	expect_ok(rootslash, R(f, "a/b"), R(f, "a/b"));
	expect_ok(f->root, R(f, "a//b/"), R(f, "a/b"));
	expect_ok(f->root, R(f, "a/./b"), R(f, "a/b"));
	expect_ok(f->root, R(f, "a/../a/b"), R(f, "a/b")); /* ".." that stays in */
	expect_ok(f->root, R(f, "a/b/.."), R(f, "a"));
	expect_ok(f->root, R(f, "plainfile"), R(f, "plainfile"));
	/* Relative symlinks that stay inside: last and middle component. */
	expect_ok(f->root, R(f, "a/link"), R(f, "b"));
	expect_ok(f->root, R(f, "a/link/inner"), R(f, "b/inner"));
	expect_ok(f->root, R(f, "a/link/inner/.."), R(f, "b"));
	/* The fd is of this very directory, not of an equal-looking one. */
	int fd = -1;
	char why[512];
	assert_int_equal(contain_resolve(f->root, R(f, "a/b"), &fd, why, sizeof why, 0),
			 CONTAIN_OK);
	struct stat st_fd, st_other;
	assert_int_equal(fstat(fd, &st_fd), 0);
	assert_int_equal(stat(R(f, "b"), &st_other), 0);
	assert_true(st_fd.st_ino != st_other.st_ino);
	close(fd);
}

/*
 * BUG (walk only): a relative symlink as the LAST component that points to
 * a non-directory inside the root. openat2 resolves it; the walk splices
 * "<target>/" + "" and then finds a file followed by "/", so it answers
 * CONTAIN_MISSING ("plainfile is not a directory").
 */
static void test_symlink_to_file_inside(void **state)
{
	struct fix *f = *state;
	expect_ok(f->root, R(f, "a/flink"), R(f, "plainfile"));
}

/* ------------------------------------------------------------ escapes */

static void test_dotdot_escapes(void **state)
{
	struct fix *f = *state;
	expect_refused(f->root, R(f, ".."), BIT(CONTAIN_OUTSIDE), "..");
	expect_refused(f->root, R(f, "a/../../x"), BIT(CONTAIN_OUTSIDE), "..");
	expect_refused(f->root, R(f, "a/../.."), BIT(CONTAIN_OUTSIDE), "..");
	expect_refused(f->root, R(f, "a/b/../../../outside"), BIT(CONTAIN_OUTSIDE), "..");
	/* Out and back in is still out. */
	expect_refused(f->root, R(f, "../root/a"), BIT(CONTAIN_OUTSIDE), "..");
}

static void test_relative_symlink_escapes(void **state)
{
	struct fix *f = *state;
	expect_refused(f->root, R(f, "a/escapelink"), BIT(CONTAIN_OUTSIDE), NULL);
	expect_refused(f->root, R(f, "a/escapelink/secret"), BIT(CONTAIN_OUTSIDE), NULL);
	/* Through a symlink that leads out and back in: refused as well. */
	expect_refused(f->root, R(f, "a/outandin"), BIT(CONTAIN_OUTSIDE), NULL);
	expect_refused(f->root, R(f, "a/outandin/inner"), BIT(CONTAIN_OUTSIDE), NULL);
}

/*
 * BUG (diagnostic): contain.h promises that `why` names the offending
 * component, but for a relative symlink out of the root it reads only
 * "\"..\" leads out of the root": neither the symlink nor the path appear.
 */
static void test_why_names_escaping_symlink(void **state)
{
	struct fix *f = *state;
	expect_refused(f->root, R(f, "a/escapelink/secret"), BIT(CONTAIN_OUTSIDE),
		       "escapelink");
}

/*
 * BUG (diagnostic): the reverse. a/link -> ../b stays inside; it is the
 * explicit ".." after it that leaves the root, yet the walk's message
 * blames "symlink link" because a symlink was followed at some point.
 */
static void test_why_blames_dotdot_not_inside_symlink(void **state)
{
	struct fix *f = *state;
	expect_refused(f->root, R(f, "a/link/../../.."), BIT(CONTAIN_OUTSIDE), "\"..\"");
}

/*
 * RESOLVE_BENEATH refuses absolute symlinks even when they point inside.
 * openat2 answers EXDEV, and contain_resolve asks the walk which component
 * it was: CONTAIN_ABSLINK in both modes.
 */
static void test_absolute_symlinks(void **state)
{
	struct fix *f = *state;
	expect_refused(f->root, R(f, "a/abslink"), BIT(CONTAIN_ABSLINK), "abslink");
	expect_refused(f->root, R(f, "a/abslink/passwd"), BIT(CONTAIN_ABSLINK), "/etc");
	expect_refused(f->root, R(f, "a/absin"), BIT(CONTAIN_ABSLINK), "absin");
	expect_refused(f->root, R(f, "a/absin/inner"), BIT(CONTAIN_ABSLINK), "absin");
	expect_refused(f->root, R(f, "a/magic"), BIT(CONTAIN_ABSLINK), "magic");
	expect_refused(f->root, R(f, "a/magic/etc"), BIT(CONTAIN_ABSLINK), "magic");
}

/*
 * A magic link met on the way (the root is /proc/self, the path goes
 * through its "root" and "cwd" links). openat2 with RESOLVE_NO_MAGICLINKS
 * says ELOOP (CONTAIN_ERROR); the walk reads the link, an absolute path
 * (CONTAIN_ABSLINK). Different codes, both refusals.
 */
static void test_magic_link_on_the_way(void **state)
{
	(void)state;
	static const char *const paths[] = {"/proc/self/root", "/proc/self/root/etc",
					    "/proc/self/cwd", NULL};
	for (const char *const *p = paths; *p; p++)
		for (int w = 0; w <= 1; w++) {
			char why[512] = "(unset)";
			int before = nfds();
			int fd = 12345;
			enum contain_result r = contain_resolve("/proc/self", *p, &fd, why,
								sizeof why, w);
			if (r == CONTAIN_OK) {
				close(fd);
				fail_msg("%s: magic link %s resolved", mode_name[w], *p);
			}
			unsigned allowed = w ? BIT(CONTAIN_ABSLINK)
					     : BIT(CONTAIN_ERROR) | BIT(CONTAIN_ABSLINK);
			if (access("/proc/self/root", F_OK) != 0)
				allowed |= BIT(CONTAIN_MISSING); /* no /proc here */
			if (!(allowed & BIT(r)))
				fail_msg("%s: %s: %s (%s)", mode_name[w], *p, res_name(r), why);
			assert_int_equal(fd, -1);
			assert_int_equal(nfds(), before);
		}
}

static void test_not_under_root(void **state)
{
	struct fix *f = *state;
	char rootslash[PATH_MAX + 2];
	snprintf(rootslash, sizeof rootslash, "%s/", f->root);

	expect_refused(f->root, "/elsewhere", BIT(CONTAIN_OUTSIDE), "/elsewhere");
	expect_refused(f->root, "/", BIT(CONTAIN_OUTSIDE), "is not under");
	expect_refused(f->root, f->base, BIT(CONTAIN_OUTSIDE), "is not under");
	expect_refused(f->root, f->outside, BIT(CONTAIN_OUTSIDE), "outside");
	/* A string prefix is not a path prefix: rootevil exists, and is out. */
	expect_refused(f->root, at(f, f->base, "rootevil"), BIT(CONTAIN_OUTSIDE), "rootevil");
	expect_refused(f->root, at(f, f->base, "rootevil/x"), BIT(CONTAIN_OUTSIDE),
		       "rootevil");
	expect_refused(rootslash, at(f, f->base, "rootevil"), BIT(CONTAIN_OUTSIDE),
		       "rootevil");
	/* Not absolute: refused before anything is looked at. */
	expect_refused(f->root, "root/a", BIT(CONTAIN_ERROR), "absolute");
	expect_refused("root", R(f, "a"), BIT(CONTAIN_ERROR), "absolute");
}

static void test_symlink_loops(void **state)
{
	struct fix *f = *state;
	expect_refused(f->root, R(f, "a/loopA"), BIT(CONTAIN_ERROR), "loop");
	expect_refused(f->root, R(f, "a/loopA/x"), BIT(CONTAIN_ERROR), "loop");
	expect_refused(f->root, R(f, "a/loopself"), BIT(CONTAIN_ERROR), "loopself");
}

static void test_missing_components(void **state)
{
	struct fix *f = *state;
	expect_refused(f->root, R(f, "a/nosuchdir"), BIT(CONTAIN_MISSING), "nosuchdir");
	expect_refused(f->root, R(f, "a/nosuchdir/x"), BIT(CONTAIN_MISSING), "nosuchdir");
	expect_refused(f->root, R(f, "a/dangling"), BIT(CONTAIN_MISSING), "No such file");
	/* A file in the middle. */
	expect_refused(f->root, R(f, "plainfile/x"), BIT(CONTAIN_MISSING), "plainfile");
	expect_refused(f->root, R(f, "plainfile/"), BIT(CONTAIN_MISSING), "plainfile");
	/* A root that does not exist. */
	const char *noroot = at(f, f->base, "noroot");
	expect_refused(noroot, at(f, noroot, "a"), BIT(CONTAIN_MISSING), "noroot");
}

/* ------------------------------------------------------------ race */

struct swapper {
	const char *swap; /* root/a/swap: a directory or a symlink out */
	const char *alt;  /* root/a/swap-alt: the other one */
	const char *park; /* root/a/swap-park: for the rename() fallback */
	int exchange;     /* renameat2(RENAME_EXCHANGE) works here */
	atomic_int stop;
	unsigned long swaps;
	int err;
};

static int exchange(const char *a, const char *b)
{
#ifdef RENAME_EXCHANGE
	return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
#else
	(void)a;
	(void)b;
	errno = ENOSYS;
	return -1;
#endif
}

static void *swap_loop(void *arg)
{
	struct swapper *s = arg;
	int in = 1; /* swap is the directory */
	while (!atomic_load(&s->stop)) {
		int r;
		if (s->exchange)
			r = exchange(s->swap, s->alt);
		else if (in)
			r = rename(s->swap, s->park) < 0 ? -1 : rename(s->alt, s->swap);
		else
			r = rename(s->swap, s->alt) < 0 ? -1 : rename(s->park, s->swap);
		if (r < 0) {
			s->err = errno;
			break;
		}
		in = !in;
		s->swaps++;
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * root/a/swap flips between a directory inside the root and a relative
 * symlink to a directory outside; both hold secret-dir. Whatever the
 * timing, CONTAIN_OK must only ever be the inside secret-dir.
 */
static void test_race_swap(void **state)
{
	struct fix *f = *state;
	char swap[PATH_MAX], alt[PATH_MAX], park[PATH_MAX], target[PATH_MAX];
	snprintf(swap, sizeof swap, "%s", R(f, "a/swap"));
	snprintf(alt, sizeof alt, "%s", R(f, "a/swap-alt"));
	snprintf(park, sizeof park, "%s", R(f, "a/swap-park"));
	snprintf(target, sizeof target, "%s", R(f, "a/swap/secret-dir"));
	mk_dir(swap);
	mk_dir(target);
	mk_dir(at(f, f->outside, "secret-dir"));
	mk_link("../../outside", alt);

	struct stat in_st, out_st;
	assert_int_equal(stat(target, &in_st), 0);
	assert_int_equal(stat(at(f, f->outside, "secret-dir"), &out_st), 0);
	assert_true(in_st.st_ino != out_st.st_ino || in_st.st_dev != out_st.st_dev);

	struct swapper s;
	memset(&s, 0, sizeof s);
	s.swap = swap;
	s.alt = alt;
	s.park = park;
	/* RENAME_EXCHANGE where the filesystem has it: swap is never missing. */
	if (exchange(swap, alt) == 0) {
		assert_int_equal(exchange(swap, alt), 0);
		s.exchange = 1;
	}

	for (int w = 0; w <= 1; w++) {
		unsigned long ok = 0, escaped = 0, other = 0, leaked = 0, iters = 0;
		unsigned long refused[CONTAIN_ERROR + 1] = {0};
		char why[512];
		int before = nfds();
		atomic_store(&s.stop, 0);
		s.swaps = 0;
		s.err = 0;
		pthread_t th;
		assert_int_equal(pthread_create(&th, NULL, swap_loop, &s), 0);
		double t0 = now(), el = 0;
		/* 20000 times or 2 s; longer (up to 10 s) until one OK was seen. */
		while ((iters < 20000 && el < 2.0) || (ok == 0 && el < 10.0)) {
			int fd = -1;
			enum contain_result r = contain_resolve(f->root, target, &fd, why,
								sizeof why, w);
			if (r == CONTAIN_OK) {
				struct stat st;
				if (fd < 0 || fstat(fd, &st) < 0)
					other++;
				else if (st.st_dev == in_st.st_dev && st.st_ino == in_st.st_ino)
					ok++;
				else if (st.st_dev == out_st.st_dev && st.st_ino == out_st.st_ino)
					escaped++;
				else
					other++;
				if (fd >= 0)
					close(fd);
			} else {
				if ((unsigned)r <= CONTAIN_ERROR)
					refused[r]++;
				if (fd != -1) {
					leaked++;
					if (fd >= 0)
						close(fd);
				}
			}
			/* Every time: under valgrind one resolution can take a second. */
			iters++;
			el = now() - t0;
		}
		atomic_store(&s.stop, 1);
		assert_int_equal(pthread_join(th, NULL), 0);
		print_message("%s race (%s): %lu resolutions in %.2f s, %lu swaps: %lu OK "
			      "(inside), %lu OUTSIDE, %lu ABSLINK, %lu MISSING, %lu ERROR; "
			      "escaped %lu, other %lu\n",
			      mode_name[w], s.exchange ? "RENAME_EXCHANGE" : "rename", iters,
			      now() - t0, s.swaps, ok, refused[CONTAIN_OUTSIDE],
			      refused[CONTAIN_ABSLINK], refused[CONTAIN_MISSING],
			      refused[CONTAIN_ERROR], escaped, other);
		if (s.err)
			fail_msg("the swapping thread failed: %s", strerror(s.err));
		if (escaped || other)
			fail_msg("%s: %lu resolutions gave the OUTSIDE directory, %lu another "
				 "object", mode_name[w], escaped, other);
		assert_int_equal(leaked, 0);
		assert_int_equal(nfds(), before);
		assert_true(s.swaps > 0);
		if (ok == 0)
			fail_msg("%s: no resolution succeeded in %lu tries: the inside case "
				 "was never exercised", mode_name[w], iters);
	}
}

/* ------------------------------------------------------------ chained roots */

/*
 * contain_resolve_at: beneath a root already open, as the helper enters a
 * per-spawn work_dir beneath the project's work_dir, itself entered
 * through the person's scope. The descriptor is what counts, not the name:
 * after root/a is renamed and replaced by a symlink out of the root, what
 * resolves beneath the descriptor is still the original a/b, and nothing
 * may climb above the descriptor's directory, though it is inside root.
 */
static void test_resolve_at_chain(void **state)
{
	struct fix *f = *state;
	char why[512], a[PATH_MAX], ab[PATH_MAX];
	snprintf(a, sizeof a, "%s", R(f, "a"));
	snprintf(ab, sizeof ab, "%s", R(f, "a/b"));
	for (int w = 0; w <= 1; w++) {
		int before = nfds();
		int afd = -1, fd = -1;
		assert_int_equal(contain_resolve(f->root, a, &afd, why, sizeof why, w), CONTAIN_OK);
		assert_int_equal(contain_resolve_at(afd, a, ab, &fd, why, sizeof why, w),
				 CONTAIN_OK);
		assert_fd_is(fd, ab, mode_name[w]);
		close(fd);
		/* The root itself, and NULL fd. */
		assert_int_equal(contain_resolve_at(afd, a, a, &fd, why, sizeof why, w), CONTAIN_OK);
		assert_fd_is(fd, a, mode_name[w]);
		close(fd);
		assert_int_equal(contain_resolve_at(afd, a, ab, NULL, why, sizeof why, w),
				 CONTAIN_OK);
		/* ".." above the descriptor's directory, a symlink out of it, a sibling. */
		fd = 12345;
		assert_int_equal(contain_resolve_at(afd, a, R(f, "a/../b"), &fd, why, sizeof why, w),
				 CONTAIN_OUTSIDE);
		assert_int_equal(fd, -1);
		assert_int_equal(contain_resolve_at(afd, a, R(f, "a/link"), &fd, why, sizeof why, w),
				 CONTAIN_OUTSIDE);
		assert_int_equal(contain_resolve_at(afd, a, R(f, "b"), &fd, why, sizeof why, w),
				 CONTAIN_OUTSIDE);
		assert_non_null(strstr(why, "is not under"));
		assert_int_equal(contain_resolve_at(afd, a, R(f, "a/nosuch"), &fd, why, sizeof why, w),
				 CONTAIN_MISSING);
		assert_int_equal(fd, -1);
		/* Swapped after the first check: the descriptor still holds the original. */
		struct stat orig;
		assert_int_equal(stat(ab, &orig), 0);
		assert_int_equal(rename(a, R(f, "a-moved")), 0);
		mk_link("../outside", a);
		assert_int_equal(contain_resolve_at(afd, a, ab, &fd, why, sizeof why, w), CONTAIN_OK);
		struct stat st;
		assert_int_equal(fstat(fd, &st), 0);
		assert_true(st.st_dev == orig.st_dev && st.st_ino == orig.st_ino);
		close(fd);
		assert_int_equal(unlink(a), 0);
		assert_int_equal(rename(R(f, "a-moved"), a), 0);
		/* The descriptor stays the caller's. */
		assert_true(fcntl(afd, F_GETFD) >= 0);
		close(afd);
		assert_int_equal(nfds(), before);
	}
}

/* ------------------------------------------------------------ public API */

static void expect_escape(const char *root, const char *path)
{
	ruas_error *err = NULL;
	int fd = -1;
	int before = nfds();
	int r = ruas_path_resolve_beneath(root, path, &fd, &err);
	if (r != RUAS_ERR_ESCAPE)
		fail_msg("%s under %s: %d (%s), expected RUAS_ERR_ESCAPE", path, root, r,
			 ruas_error_message(err));
	assert_non_null(err);
	assert_int_equal(ruas_error_code(err), RUAS_ERR_ESCAPE);
	assert_int_equal(fd, -1);
	assert_int_equal(nfds(), before);
	if (!strstr(ruas_error_message(err), path))
		fail_msg("message does not name %s: %s", path, ruas_error_message(err));
	ruas_error_free(err);
	/* err may be NULL. */
	assert_int_equal(ruas_path_resolve_beneath(root, path, NULL, NULL), RUAS_ERR_ESCAPE);
	assert_int_equal(nfds(), before);
}

static void test_public_api(void **state)
{
	struct fix *f = *state;
	ruas_error *err = NULL;
	int fd = -1;
	int before = nfds();

	assert_int_equal(ruas_path_resolve_beneath(f->root, R(f, "a/b"), &fd, &err), 0);
	assert_null(err);
	assert_true(fd >= 0);
	assert_fd_is(fd, R(f, "a/b"), "ruas_path_resolve_beneath");
	close(fd);
	assert_int_equal(ruas_path_resolve_beneath(f->root, R(f, "a/link/inner"), NULL, &err), 0);
	assert_null(err);
	assert_int_equal(nfds(), before);

	expect_escape(f->root, R(f, ".."));
	expect_escape(f->root, R(f, "a/../../outside"));
	expect_escape(f->root, R(f, "a/escapelink/secret"));
	expect_escape(f->root, R(f, "a/abslink"));
	expect_escape(f->root, at(f, f->base, "rootevil"));

	/* Missing: a system error, ENOENT, naming the path. */
	fd = -1;
	assert_int_equal(ruas_path_resolve_beneath(f->root, R(f, "a/nosuchdir"), &fd, &err),
			 RUAS_ERR_SYSTEM);
	assert_int_equal(ruas_error_errno(err), ENOENT);
	assert_non_null(strstr(ruas_error_message(err), "nosuchdir"));
	assert_int_equal(fd, -1);
	ruas_error_free(err);
	err = NULL;

	/* NULL arguments. */
	fd = -1;
	assert_int_equal(ruas_path_resolve_beneath(NULL, R(f, "a"), &fd, &err),
			 RUAS_ERR_INVALID);
	assert_int_equal(ruas_error_code(err), RUAS_ERR_INVALID);
	assert_int_equal(fd, -1);
	ruas_error_free(err);
	err = NULL;
	assert_int_equal(ruas_path_resolve_beneath(f->root, NULL, &fd, &err),
			 RUAS_ERR_INVALID);
	assert_int_equal(ruas_error_code(err), RUAS_ERR_INVALID);
	assert_int_equal(fd, -1);
	ruas_error_free(err);
	assert_int_equal(ruas_path_resolve_beneath(NULL, NULL, NULL, NULL), RUAS_ERR_INVALID);
	assert_int_equal(nfds(), before);
}

/* The trees root trusts (trusted_tree.h): as themselves, inside, above; holders for grants. */
static void test_trusted_trees(void **state)
{
	(void)state;
	static const struct {
		const char *path;
		int holders;
		const char *tree, *how;
	} cases[] = {
		{"/etc", 0, "/etc", "is"},
		{"/etc/sudoers.d", 0, "/etc", "lies inside"},
		{"/etcx", 0, NULL, NULL},
		{"/usr/local/lib", 0, "/usr", "lies inside"},
		{"/", 0, "/etc", "lies above"},
		{"/var", 0, "/var/lib/dpkg", "lies above"},
		{"/var/lib", 0, "/var/lib/dpkg", "lies above"},
		{"/var/lib/dpkg/info", 0, "/var/lib/dpkg", "lies inside"},
		{"/var/lib/other", 0, NULL, NULL},
		{"/root/x", 0, "/root", "lies inside"},
		{"/srv/ruas/p", 0, NULL, NULL},
		{"/home/t/work", 0, NULL, NULL},
		{"/home", 0, NULL, NULL},
		{"/home", 1, "/home", "is"},
		{"/tmp", 1, "/tmp", "is"},
		{"/tmp/w", 1, NULL, NULL},
		{"/home/t/work", 1, NULL, NULL},
		{"/srv", 1, "/srv", "is"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *how = NULL;
		const char *tree = trusted_tree_conflict(cases[i].path, cases[i].holders, &how);
		if ((tree == NULL) != (cases[i].tree == NULL) ||
		    (tree && (strcmp(tree, cases[i].tree) != 0 || strcmp(how, cases[i].how) != 0)))
			fail_msg("%s (holders %d): %s %s, expected %s %s", cases[i].path,
				 cases[i].holders, how ? how : "-", tree ? tree : "none",
				 cases[i].how ? cases[i].how : "-", cases[i].tree ? cases[i].tree : "none");
	}
	static const char *const norm[][2] = {
		{"/srv/w1/../../etc", "/etc"}, {"/a/./b//c/", "/a/b/c"}, {"/..", "/"},
		{"/../../x", "/x"},            {"/", "/"},             {"/a/b/../..", "/"},
	};
	for (size_t i = 0; i < sizeof norm / sizeof *norm; i++) {
		char out[64];
		assert_int_equal(path_normalize(norm[i][0], out, sizeof out), 0);
		if (strcmp(out, norm[i][1]) != 0)
			fail_msg("%s normalized to %s, expected %s", norm[i][0], out, norm[i][1]);
	}
	char small[4];
	assert_int_equal(path_normalize("relative", small, sizeof small), -1);
	assert_int_equal(path_normalize("/abcdef", small, sizeof small), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trusted_trees),
		cmocka_unit_test_setup_teardown(test_inside_resolves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_to_file_inside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dotdot_escapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_relative_symlink_escapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_why_names_escaping_symlink, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_why_blames_dotdot_not_inside_symlink,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_absolute_symlinks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_magic_link_on_the_way, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_under_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_loops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_components, setup, teardown),
		cmocka_unit_test_setup_teardown(test_race_swap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_at_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_public_api, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
