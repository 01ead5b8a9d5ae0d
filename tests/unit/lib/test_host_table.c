/* SPDX-License-Identifier: ISC */
/*
 * test_host_table.c - the table's trees walked once by the library
 * (src/lib/host/table.h) and judged per target as the helper judged them:
 * what is kept inside a tree and to its depth only, a symlink judged by
 * where its chain leads and the directories on the way (named by the
 * link), an entry named after the target skipped where the table says
 * so, the entry cap as a finding of its own, the payload's names of the
 * trees, and the table as this host has it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <grp.h>
#include <sys/wait.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "fixture.h"
#include "helper_report.h"
#include "host/fs_kind.h"
#include "host/table.h"
#include "host/verdict.h"

#define T_UID 40101u
#define T_GID 40101u

static const struct anchor_def CRON = {NULL, ANCHOR_TREE, 1, ANCHOR_SKIP_SELF, "cron", "w", NULL};
static const struct anchor_def PAM = {NULL, ANCHOR_TREE, 2, 0, "pam", "w", NULL};

struct fix {
	char root[PATH_MAX]; /* resolved: the walk names what it finds by resolved paths */
};

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof *f);
	char tmpl[] = "/tmp/ruas-table-XXXXXX";
	assert_non_null(f);
	assert_non_null(mkdtemp(tmpl));
	assert_non_null(realpath(tmpl, f->root));
	assert_int_equal(chmod(f->root, 0755), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	rm_rf(f->root);
	free(f);
	return 0;
}

static char *at(const struct fix *f, const char *rel)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "%s/%s", f->root, rel);
	assert_false(b.oom);
	return buf_detach(&b);
}

static void mk(const struct fix *f, const char *rel, mode_t mode)
{
	char *p = at(f, rel);
	FILE *fp = fopen(p, "w");
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(chmod(p, mode), 0);
	free(p);
}

static void mkd(const struct fix *f, const char *rel, mode_t mode)
{
	char *p = at(f, rel);
	assert_int_equal(mkdir(p, 0700), 0);
	assert_int_equal(chmod(p, mode), 0);
	free(p);
}

/* What user (T_UID, group T_GID) gets: "HOW REL ID PATH -> ANCHOR" per hit, R for the root. */
static char *hits_for(const struct fix *f, const struct host_table *tt, const char *user)
{
	struct helper_report hr;
	const gid_t g[] = {T_GID};
	memset(&hr, 0, sizeof hr);
	assert_int_equal(host_verdict_add(&tt->found, NULL, user, T_UID, g, 1, 60, &hr), 0);
	static const char *const rels[] = {"?", "self", "parent", "inside", "link"};
	struct buf b = BUF_INIT;
	size_t n = strlen(f->root);
	for (size_t i = 0; i < hr.nanchors; i++) {
		const struct anchor_hit *a = &hr.anchors[i];
		const char *p = strncmp(a->path, f->root, n) == 0 ? a->path + n : a->path;
		const char *an = strncmp(a->anchor, f->root, n) == 0 ? a->anchor + n : a->anchor;
		buf_printf(&b, "%c %s %s R%s -> R%s\n", a->how, rels[a->rel < 5 ? a->rel : 0], a->id,
			   p, an);
	}
	buf_printf(&b, "total %llu\n", hr.anchors_total);
	helper_report_free(&hr);
	assert_false(b.oom);
	return buf_detach(&b);
}

/* tt with the one tree at rel (depth and id: d's), walked. */
static void walk_one(const struct fix *f, const char *rel, const struct anchor_def *d,
		     struct host_table *tt)
{
	char *path = at(f, rel);
	memset(tt, 0, sizeof *tt);
	assert_int_equal(host_table_add(tt, path, path, d->depth, d), 0);
	assert_int_equal(host_table_walk(tt, 0), 0);
	free(path);
}

static void assert_lines(const char *got, const char *want)
{
	if (strcmp(got, want) != 0)
		fail_msg("hits differ.\n--- got:\n%s--- want:\n%s", got, want);
}

/* A symlink at rel to the fixture's to_rel (an absolute path). */
static void ln(const struct fix *f, const char *rel, const char *to_rel)
{
	char *to = at(f, to_rel), *link = at(f, rel);
	assert_int_equal(symlink(to, link), 0);
	free(to);
	free(link);
}

/* The tree at rel walked alone: user's hits are want. */
static void expect_hits(const struct fix *f, const char *rel, const struct anchor_def *d,
			const char *user, const char *want)
{
	struct host_table tt;
	walk_one(f, rel, d, &tt);
	char *got = hits_for(f, &tt, user);
	assert_lines(got, want);
	free(got);
	host_table_free(&tt);
}

/*
 * A tree of depth 1 and one of depth 2: what others may write inside, to
 * the depth and no deeper; links judged by where they lead and the way
 * there; the entry named after the target skipped in the cron tree only.
 */
static void test_walk_and_judge(void **state)
{
	struct fix *f = *state;
	mkd(f, "cron", 0755);
	mk(f, "cron/ok", 0644);
	mk(f, "cron/open", 0666);
	mkd(f, "cron/sub", 0755);
	mk(f, "cron/sub/deep", 0666); /* below the depth of 1 */
	mk(f, "cron/tgt", 0666);      /* named after the target: its own (ANCHOR_SKIP_SELF) */
	mkd(f, "elsewhere", 0777);    /* the directory above where a link leads */
	mk(f, "elsewhere/job", 0644);
	mkd(f, "hop", 0777);          /* a middle link's directory: it repoints the chain */
	char *job = at(f, "elsewhere/job"), *hop = at(f, "hop/next"), *link = at(f, "cron/link");
	assert_int_equal(symlink(job, hop), 0);
	assert_int_equal(symlink(hop, link), 0);
	char *null = at(f, "cron/masked");
	assert_int_equal(symlink("/dev/null", null), 0); /* a masked unit: a device, fine */
	mkd(f, "pam", 0755);
	mkd(f, "pam/sub", 0755);
	mk(f, "pam/sub/deep", 0666); /* within the depth of 2 */

	struct host_table tt;
	memset(&tt, 0, sizeof tt);
	char *cron = at(f, "cron"), *pam = at(f, "pam");
	assert_int_equal(host_table_add(&tt, cron, cron, 1, &CRON), 0);
	assert_int_equal(host_table_add(&tt, pam, pam, 2, &PAM), 0);
	assert_int_equal(host_table_add(&tt, cron, cron, 1, &CRON), 0); /* once */
	assert_int_equal(tt.ntrees, 2);
	assert_int_equal(host_table_walk(&tt, 0), 0);

	char *got = hits_for(f, &tt, "tgt");
	assert_lines(got, "w inside cron R/cron/open -> R/cron\n"
			  "w link cron R/elsewhere -> R/cron/link\n"
			  "w link cron R/hop -> R/cron/link\n"
			  "w inside pam R/pam/sub/deep -> R/pam\n"
			  "total 4\n");
	free(got);
	/* Another target: the cron entry named after "tgt" is not its own. */
	got = hits_for(f, &tt, "other");
	assert_lines(got, "w inside cron R/cron/open -> R/cron\n"
			  "w inside cron R/cron/tgt -> R/cron\n"
			  "w link cron R/elsewhere -> R/cron/link\n"
			  "w link cron R/hop -> R/cron/link\n"
			  "w inside pam R/pam/sub/deep -> R/pam\n"
			  "total 5\n");
	free(got);

	char **names = host_table_names(&tt);
	assert_non_null(names);
	char want[PATH_MAX + 8];
	snprintf(want, sizeof want, "1 %s", cron);
	assert_string_equal(names[0], want);
	snprintf(want, sizeof want, "2 %s", pam);
	assert_string_equal(names[1], want);
	assert_null(names[2]);
	for (size_t i = 0; names[i]; i++)
		free(names[i]);
	free(names);
	host_table_free(&tt);
	free(cron);
	free(pam);
	free(job);
	free(hop);
	free(link);
	free(null);
}

/* As root: what the target owns, inside a tree and where a link leads. */
static void test_owned(void **state)
{
	struct fix *f = *state;
	if (geteuid() != 0) {
		print_message("SKIP: needs root to give files to another uid\n");
		skip();
	}
	mkd(f, "cron", 0755);
	mk(f, "cron/mine", 0644);
	mk(f, "theirs", 0600);
	char *mine = at(f, "cron/mine"), *theirs = at(f, "theirs"), *link = at(f, "cron/l");
	assert_int_equal(chown(mine, T_UID, T_GID), 0);
	assert_int_equal(chown(theirs, T_UID, T_GID), 0);
	assert_int_equal(symlink(theirs, link), 0);
	struct host_table tt;
	walk_one(f, "cron", &CRON, &tt);
	char *got = hits_for(f, &tt, "tgt");
	assert_lines(got, "o inside cron R/cron/mine -> R/cron\n"
			  "o link cron R/theirs -> R/cron/l\n"
			  "total 2\n");
	free(got);
	host_table_free(&tt);
	free(mine);
	free(theirs);
	free(link);
}

/*
 * A dangling link: whoever may write the nearest directory that exists on
 * the way to where it leads creates what root then runs (sticky or not).
 */
static void test_dangling(void **state)
{
	struct fix *f = *state;
	mkd(f, "cron", 0755);
	mkd(f, "drop", 01777);
	mkd(f, "shut", 0755);
	ln(f, "cron/dang", "drop/later/job");
	ln(f, "cron/dang2", "shut/later");
	expect_hits(f, "cron", &CRON, "tgt", "w link cron R/drop -> R/cron/dang\ntotal 1\n");
}

/*
 * As root, the walk as nobody: a link whose chain goes through a directory
 * the supervisor may not search (the target's 0700 home). The helper
 * followed it as the target; the library judges the directory it could
 * not walk: the target owns it. One the target may not search either is
 * out of its reach.
 */
static void test_unsearchable(void **state)
{
	struct fix *f = *state;
	if (geteuid() != 0) {
		print_message("SKIP: needs root to walk as another user\n");
		skip();
	}
	mkd(f, "cron", 0755);
	mkd(f, "home", 0700);
	mk(f, "home/job", 0644);
	mkd(f, "vault", 0700); /* root's: nobody gets in */
	mk(f, "vault/job", 0644);
	char *home = at(f, "home"), *job = at(f, "home/job"), *link = at(f, "cron/j");
	char *vjob = at(f, "vault/job"), *vlink = at(f, "cron/v");
	assert_int_equal(chown(home, T_UID, T_GID), 0);
	assert_int_equal(symlink(job, link), 0);
	assert_int_equal(symlink(vjob, vlink), 0);
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
			_exit(77);
		struct host_table tt;
		walk_one(f, "cron", &CRON, &tt);
		char *got = hits_for(f, &tt, "tgt");
		ssize_t wr = write(p[1], got, strlen(got));
		_exit(wr < 0 ? 1 : 0);
	}
	close(p[1]);
	char out[4096];
	size_t n = 0;
	ssize_t r;
	while (n < sizeof out - 1 && (r = read(p[0], out + n, sizeof out - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	close(p[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_lines(out, "o link cron R/home -> R/cron/j\ntotal 1\n");
	free(home);
	free(job);
	free(link);
	free(vjob);
	free(vlink);
}

/*
 * A chain that meets a file where a directory should be: whoever writes
 * the file's directory replaces it with a directory, and the rest with it.
 */
static void test_file_on_the_way(void **state)
{
	struct fix *f = *state;
	mkd(f, "cron", 0755);
	mkd(f, "open", 0777);
	mk(f, "open/file", 0644);
	mkd(f, "sticky", 01777); /* there root's file cannot be replaced */
	mk(f, "sticky/file", 0644);
	ln(f, "cron/y", "open/file/job");
	ln(f, "cron/z", "sticky/file/job");
	expect_hits(f, "cron", &CRON, "tgt", "w link cron R/open -> R/cron/y\ntotal 1\n");
}

/*
 * A path that the cron spool (whose entries named after a target are its
 * own) and another tree both lead to is judged as the other tree's: the
 * target's own crontab does not hide what it can do to root's PATH.
 */
static void test_own_crontab_hides_nothing_else(void **state)
{
	struct fix *f = *state;
	if (geteuid() != 0) {
		print_message("SKIP: needs root to give files to another uid\n");
		skip();
	}
	mkd(f, "spool", 0755);
	mkd(f, "bin", 0755);
	mkd(f, "shared", 0755);
	mk(f, "shared/tgt.cron", 0644);
	mk(f, "shared/tool", 0755);
	char *shared = at(f, "shared"), *cron = at(f, "shared/tgt.cron"), *tool = at(f, "shared/tool");
	char *l1 = at(f, "spool/tgt"), *l2 = at(f, "bin/tool"), *spool = at(f, "spool"),
	     *bin = at(f, "bin");
	assert_int_equal(chown(shared, T_UID, T_GID), 0);
	assert_int_equal(symlink(cron, l1), 0);
	assert_int_equal(symlink(tool, l2), 0);
	struct host_table tt;
	memset(&tt, 0, sizeof tt);
	/* The spool listed first: the walk takes it last all the same. */
	assert_int_equal(host_table_add(&tt, spool, spool, 1, &CRON), 0);
	assert_int_equal(host_table_add(&tt, bin, bin, 1, &PAM), 0);
	assert_int_equal(host_table_walk(&tt, 0), 0);
	char *got = hits_for(f, &tt, "tgt");
	assert_lines(got, "o link pam R/shared -> R/bin/tool\ntotal 1\n");
	free(got);
	host_table_free(&tt);
	free(shared);
	free(cron);
	free(tool);
	free(l1);
	free(l2);
	free(spool);
	free(bin);
}

/*
 * Where the mode bits do not decide who may write (here /proc, as a
 * network or FUSE file system would be), the walk does not judge: not
 * judged, for every target that can get in, and nothing below it walked.
 */
static void test_not_mode_bits(void **state)
{
	struct fix *f = *state;
	(void)f;
	assert_false(host_fs_mode_bits_decide("/proc/1"));
	assert_true(host_fs_mode_bits_decide(f->root));
	struct host_table tt;
	memset(&tt, 0, sizeof tt);
	assert_int_equal(host_table_add(&tt, "/proc/1", "/proc/1", 1, &PAM), 0);
	assert_int_equal(host_table_walk(&tt, 0), 0);
	assert_int_equal(tt.found.n, 1);
	char *got = hits_for(f, &tt, "tgt");
	if (strncmp(got, "u inside pam R/proc/1 -> Rits file system decides", 48) != 0 ||
	    !strstr(got, "\ntotal 1\n"))
		fail_msg("got:\n%s", got);
	free(got);
	host_table_free(&tt);
}

/* Past ANCHOR_TREE_ENTRIES_MAX entries: not judged is not passed, for every target. */
static void test_cap(void **state)
{
	struct fix *f = *state;
	mkd(f, "big", 0755);
	for (unsigned int i = 0; i <= ANCHOR_TREE_ENTRIES_MAX; i++) {
		char rel[64];
		snprintf(rel, sizeof rel, "big/f%u", i);
		mk(f, rel, 0644);
	}
	struct host_table tt;
	walk_one(f, "big", &PAM, &tt);
	char *got = hits_for(f, &tt, "tgt");
	assert_lines(got, "c self pam R/big -> R/big\ntotal 1\n");
	free(got);
	host_table_free(&tt);
	/* A directory the target may not enter: what is in it is out of its reach. */
	if (geteuid() == 0) {
		char *big = at(f, "big");
		assert_int_equal(chmod(big, 0700), 0);
		walk_one(f, "big", &PAM, &tt);
		got = hits_for(f, &tt, "tgt");
		assert_lines(got, "total 0\n");
		free(got);
		host_table_free(&tt);
		free(big);
	}
}

/*
 * The table as this host has it: each tree a directory, resolved (no
 * symlink on the way) and listed once; /lib/<triplet> is /usr/lib's on a
 * merged /usr, so the helper and the library name it alike.
 */
static void test_host_list(void **state)
{
	(void)state;
	struct host_table tt;
	assert_int_equal(host_table_list(&tt), 0);
	assert_true(tt.ntrees > 0);
	for (size_t i = 0; i < tt.ntrees; i++) {
		char real[PATH_MAX];
		struct stat st;
		assert_int_equal(lstat(tt.tree[i].path, &st), 0);
		assert_true(S_ISDIR(st.st_mode));
		assert_non_null(realpath(tt.tree[i].path, real));
		assert_string_equal(real, tt.tree[i].path);
		assert_true(tt.tree[i].depth > 0);
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(tt.tree[k].path, tt.tree[i].path);
	}
	host_table_free(&tt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_walk_and_judge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_owned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dangling, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsearchable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_on_the_way, setup, teardown),
		cmocka_unit_test_setup_teardown(test_own_crontab_hides_nothing_else, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_mode_bits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cap, setup, teardown),
		cmocka_unit_test(test_host_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
