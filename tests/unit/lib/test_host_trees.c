/* SPDX-License-Identifier: ISC */
/*
 * test_host_trees.c - the library's walk of the trees root trusts
 * (src/lib/host): the kernel's permission rules as judge.c applies them
 * (owner, named ACL entries and the mask, groups before others), what the
 * walk keeps in a fake tree (on one thread and on several alike), the
 * roots ld.so.conf adds, reachability through directories others may not
 * enter, the hits per target (deduplicated, capped, the target's own
 * crontab skipped, a late walk fatal) and the kept walk: reused while
 * fresh, walked again when asked, never read from a file others can write.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "words.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/anchors_report.h"
#include "fixture.h"
#include "helper_report.h"
#include "host/cache.h"
#include "host/trees.h"
#include "host/verdict.h"

#define T_UID 40001u
#define T_GID 40001u
#define G_OTHER 40002u

static int may(uid_t owner, gid_t group, unsigned int mode, const struct host_ace *acl,
	       size_t nacl, const gid_t *groups, size_t ng, unsigned int want)
{
	return host_may(owner, group, mode, acl, nacl, T_UID, groups, ng, want);
}

static void test_permission_rules(void **state)
{
	(void)state;
	const gid_t mine[] = {T_GID, G_OTHER};
	const gid_t alone[] = {T_GID};
	/* Without an ACL: owner, then group, then others; a matching class is final. */
	assert_true(may(T_UID, 0, 0200, NULL, 0, alone, 1, 2));
	assert_false(may(T_UID, 0, 0577, NULL, 0, alone, 1, 2)); /* owner bits alone */
	assert_true(may(0, G_OTHER, 0020, NULL, 0, mine, 2, 2));
	assert_false(may(0, G_OTHER, 0757, NULL, 0, mine, 2, 2)); /* group r-x beats others rwx */
	assert_true(may(0, G_OTHER, 0757, NULL, 0, alone, 1, 2));
	assert_false(may(0, 0, 0755, NULL, 0, alone, 1, 2));
	assert_true(may(0, 0, 0751, NULL, 0, alone, 1, 1));
	/* A named user entry, limited by the mask. */
	const struct host_ace user_rw[] = {{HOST_ACL_USER_OBJ, 7, 0}, {HOST_ACL_USER, 6, T_UID},
					   {HOST_ACL_GROUP_OBJ, 5, 0}, {HOST_ACL_MASK, 6, 0},
					   {HOST_ACL_OTHER, 5, 0}};
	assert_true(may(0, 0, 0765, user_rw, 5, alone, 1, 2));
	const struct host_ace user_masked[] = {{HOST_ACL_USER_OBJ, 7, 0}, {HOST_ACL_USER, 6, T_UID},
					       {HOST_ACL_GROUP_OBJ, 5, 0}, {HOST_ACL_MASK, 4, 0},
					       {HOST_ACL_OTHER, 7, 0}};
	assert_false(may(0, 0, 0747, user_masked, 5, alone, 1, 2)); /* its entry is final */
	/* A named group entry; another matching group that lacks w does not take it away. */
	const struct host_ace grp[] = {{HOST_ACL_USER_OBJ, 7, 0}, {HOST_ACL_GROUP_OBJ, 5, 0},
				       {HOST_ACL_GROUP, 7, G_OTHER}, {HOST_ACL_MASK, 7, 0},
				       {HOST_ACL_OTHER, 5, 0}};
	assert_true(may(0, T_GID, 0775, grp, 5, mine, 2, 2));
	assert_false(may(0, T_GID, 0775, grp, 5, alone, 1, 2)); /* group_obj r-x is final */
	/* No entry matches: others. */
	const struct host_ace oth[] = {{HOST_ACL_USER_OBJ, 7, 0}, {HOST_ACL_GROUP_OBJ, 5, 0},
				       {HOST_ACL_MASK, 5, 0}, {HOST_ACL_OTHER, 7, 0}};
	assert_true(may(0, 0, 0757, oth, 4, alone, 1, 2));
}

static void test_entry_verdicts(void **state)
{
	(void)state;
	const gid_t g[] = {T_GID};
	struct host_entry e = {.path = "/etc/x", .mode = S_IFREG | 0644, .uid = T_UID};
	assert_int_equal(host_entry_judge(&e, T_UID, g, 1), 'o');
	e.flags = HOST_ENTRY_RO;
	assert_int_equal(host_entry_judge(&e, T_UID, g, 1), 'o'); /* owned, read-only or not */
	e = (struct host_entry){.path = "/etc/x", .mode = S_IFREG | 0646};
	assert_int_equal(host_entry_judge(&e, T_UID, g, 1), 'w');
	e.flags = HOST_ENTRY_RO;
	assert_int_equal(host_entry_judge(&e, T_UID, g, 1), 0);
	e = (struct host_entry){.path = "/x", .mode = S_IFLNK | 0777};
	assert_int_equal(host_entry_judge(&e, T_UID, g, 1), 0);
	/* A sticky directory above a root: not the target's to rename. */
	e = (struct host_entry){.path = "/var", .mode = S_IFDIR | 01777, .flags = HOST_ENTRY_ABOVE};
	assert_int_equal(host_entry_judge(&e, T_UID, g, 1), 0);
	e.mode = S_IFDIR | 0777;
	assert_int_equal(host_entry_judge(&e, T_UID, g, 1), 'w');
	/* A default ACL entry for the target. */
	struct host_ace d[] = {{HOST_ACL_USER_OBJ, 7, 0}, {HOST_ACL_USER, 7, T_UID},
			       {HOST_ACL_GROUP_OBJ, 5, 0}, {HOST_ACL_MASK, 7, 0},
			       {HOST_ACL_OTHER, 5, 0}};
	e = (struct host_entry){.path = "/etc/d", .mode = S_IFDIR | 0755, .dacl = d, .ndacl = 5};
	assert_int_equal(host_entry_judge(&e, T_UID, g, 1), 'd');
	assert_int_equal(host_entry_judge(&e, T_UID + 1, g, 1), 0);
	/* Hidden from the supervisor: only whether the target may enter. */
	e = (struct host_entry){.path = "/etc/h", .mode = S_IFDIR | 0711, .flags = HOST_ENTRY_HIDDEN};
	assert_int_equal(host_entry_judge(&e, T_UID, g, 1), 'x');
	e.mode = S_IFDIR | 0700;
	assert_int_equal(host_entry_judge(&e, T_UID, g, 1), 0);
}

/* ------------------------------------------------------------- a fake tree */

static char root[] = "/tmp/ruas-test-trees-XXXXXX";

static void mk(const char *rel, unsigned int mode, int dir)
{
	char p[512];
	snprintf(p, sizeof p, "%s%s", root, rel);
	if (dir) {
		assert_int_equal(mkdir(p, 0755), 0);
	} else {
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		assert_true(fd >= 0);
		close(fd);
	}
	assert_int_equal(chmod(p, mode), 0);
}

static void put(const char *rel, const char *text)
{
	char p[512];
	snprintf(p, sizeof p, "%s%s", root, rel);
	FILE *f = fopen(p, "we");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup_tree(void **state)
{
	(void)state;
	/* The fake "/": mkdtemp's 0700 would put everything out of a target's reach. */
	if (!mkdtemp(root) || chmod(root, 0755) < 0)
		return -1;
	mk("/etc", 0755, 1);
	mk("/etc/a", 0644, 0);
	mk("/etc/b", 0666, 0);
	mk("/etc/sub", 0777, 1);
	mk("/etc/deep", 0755, 1);
	mk("/etc/deep/x", 0755, 1);
	mk("/etc/deep/x/y", 0646, 0);
	mk("/etc/priv", 0700, 1);
	mk("/etc/priv/f", 0666, 0);
	mk("/etc/ld.so.conf.d", 0755, 1);
	put("/etc/ld.so.conf", "include ld.so.conf.d/*.conf\n# /nowhere\n");
	put("/etc/ld.so.conf.d/one.conf", "/srv/lib\n/usr/local/lib\n/srv/lib/../lib\n");
	mk("/usr", 0755, 1);
	mk("/usr/g", 0775, 0);
	mk("/srv", 0755, 1);
	mk("/srv/lib", 0755, 1);
	mk("/srv/lib/evil.so", 0666, 0);
	return 0;
}

static int teardown_tree(void **state)
{
	(void)state;
	rm_rf(root);
	return 0;
}

static const struct host_entry *entry(const struct host_trees *t, const char *path)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->e[i].path, path) == 0)
			return &t->e[i];
	return NULL;
}

static void test_walk_keeps_what_others_write(void **state)
{
	(void)state;
	struct host_trees one, two;
	assert_int_equal(host_trees_walk(root, 1, 0, &one), 0);
	assert_int_equal(host_trees_walk(root, 2, 0, &two), 0);
	/* The roots: the fixed ones, ld.so.conf's (inside /usr dropped, ".." refused). */
	const char *const want[] = {"/etc", "/usr", "/boot", "/opt", "/var/lib/dpkg",
				    "/var/spool/cron", "/srv/lib"};
	assert_int_equal(one.nroots, 7);
	for (size_t i = 0; i < 7; i++)
		assert_string_equal(one.roots[i], want[i]);
	assert_non_null(entry(&one, "/etc/b"));
	assert_non_null(entry(&one, "/etc/sub"));
	assert_non_null(entry(&one, "/etc/deep/x/y"));
	assert_non_null(entry(&one, "/etc/priv"));   /* others may not enter: kept */
	assert_non_null(entry(&one, "/etc/priv/f")); /* root, as the test runs, lists it */
	assert_non_null(entry(&one, "/usr/g"));
	assert_non_null(entry(&one, "/srv/lib/evil.so"));
	/* Everything here is the runner's: only a root runner's tree is root's. */
	if (geteuid() == 0) {
		assert_null(entry(&one, "/etc/a"));
		assert_null(entry(&one, "/etc/deep"));
	} else {
		print_message("NOTE: not root: /etc/a and /etc/deep are the runner's, so kept\n");
	}
	assert_int_equal(one.incomplete, 0);
	/* One thread or two: the same entries, in the same order. */
	assert_int_equal(one.n, two.n);
	assert_int_equal(one.entries, two.entries);
	for (size_t i = 0; i < one.n; i++)
		assert_string_equal(one.e[i].path, two.e[i].path);
	/* Reachability: /etc/priv/f is out of reach of a target that cannot enter /etc/priv. */
	const gid_t g[] = {T_GID};
	const struct host_entry *f = entry(&one, "/etc/priv/f");
	assert_false(host_entry_reachable(&one, f, T_UID, g, 1));
	assert_true(host_entry_reachable(&one, f, entry(&one, "/etc/priv")->uid, g, 1));
	assert_true(host_entry_reachable(&one, entry(&one, "/etc/b"), T_UID, g, 1));
	host_trees_free(&one);
	host_trees_free(&two);
}

/* ------------------------------------------------------------- hits per target */

static void test_hits(void **state)
{
	(void)state;
	struct host_trees t;
	assert_int_equal(host_trees_walk(root, 0, 0, &t), 0);
	struct helper_report hr;
	memset(&hr, 0, sizeof hr);
	/* The helper already named /etc/b: not twice. */
	hr.anchors = calloc(1, sizeof *hr.anchors);
	assert_non_null(hr.anchors);
	hr.anchors[0].path = strdup("/etc/b");
	hr.anchors[0].anchor = strdup("/etc/b");
	hr.nanchors = 1;
	hr.anchors_total = 1;
	const gid_t g[] = {T_GID};
	assert_int_equal(host_verdict_add(&t, NULL, "t", T_UID, g, 1, 60, &hr), 0);
	int sub = 0, deep = 0, b = 0, priv = 0, evil = 0;
	for (size_t i = 0; i < hr.nanchors; i++) {
		const struct anchor_hit *a = &hr.anchors[i];
		sub += strcmp(a->path, "/etc/sub") == 0;
		deep += strcmp(a->path, "/etc/deep/x/y") == 0;
		b += strcmp(a->path, "/etc/b") == 0;
		priv += strcmp(a->path, "/etc/priv/f") == 0;
		if (strcmp(a->path, "/srv/lib/evil.so") == 0) {
			evil++;
			assert_string_equal(a->id, "tree-ld");
			assert_string_equal(a->anchor, "/srv/lib");
			assert_int_equal(a->rel, AREL_INSIDE);
			char *m = text_of(msg_anchor("t", "sup", a));
			assert_non_null(strstr(m, "ERROR: target user \"t\" can write \"/srv/lib/evil.so\", "
						  "inside \"/srv/lib\", which root runs or trusts: a "
						  "directory that ld.so.conf names"));
			assert_non_null(strstr(m, "Fix: chmod go-w /srv/lib/evil.so."));
			free(m);
		}
	}
	assert_int_equal(sub, 1);
	assert_int_equal(deep, 1);
	assert_int_equal(b, 1);
	assert_int_equal(evil, 1);
	assert_int_equal(priv, 0); /* out of reach */
	assert_int_equal(hr.anchors_total, hr.nanchors);
	helper_report_free(&hr);

	/* A late walk: one hit saying so, fatal like the rest. */
	memset(&hr, 0, sizeof hr);
	t.incomplete = 1;
	assert_int_equal(host_verdict_add(&t, NULL, "t", T_UID, g, 1, 60, &hr), 0);
	const struct anchor_hit *late = &hr.anchors[hr.nanchors - 1];
	assert_int_equal(late->how, 't');
	char *m = text_of(msg_anchor("t", "sup", late));
	assert_non_null(strstr(m, "ERROR: the trees that root trusts (/etc, /usr, /boot, /opt, "
				  "/var/lib/dpkg, /var/spool/cron, /srv/lib) were not fully judged "
				  "for target user \"t\": the walk stopped after scan_time_limit (60 "
				  "seconds)."));
	free(m);
	helper_report_free(&hr);
	host_trees_free(&t);
}

static void test_hits_capped_and_own_crontab(void **state)
{
	(void)state;
	struct host_trees t;
	memset(&t, 0, sizeof t);
	char *roots[] = {"/var/spool/cron", NULL};
	t.roots = roots;
	t.nroots = 1;
	struct host_entry e[ANCHOR_REPORT_CAP + 3];
	char paths[ANCHOR_REPORT_CAP + 3][64];
	for (size_t i = 0; i < ANCHOR_REPORT_CAP + 3; i++) {
		snprintf(paths[i], sizeof paths[i], "/var/spool/cron/crontabs/u%03zu", i);
		e[i] = (struct host_entry){.path = paths[i], .mode = S_IFREG | 0666};
	}
	/* The target's own, named after it. */
	snprintf(paths[0], sizeof paths[0], "/var/spool/cron/crontabs/t");
	e[0].uid = T_UID;
	t.e = e;
	t.n = ANCHOR_REPORT_CAP + 3;
	struct helper_report hr;
	memset(&hr, 0, sizeof hr);
	const gid_t g[] = {T_GID};
	assert_int_equal(host_verdict_add(&t, NULL, "t", T_UID, g, 1, 60, &hr), 0);
	assert_int_equal(hr.nanchors, ANCHOR_REPORT_CAP);
	assert_int_equal(hr.anchors_total, ANCHOR_REPORT_CAP + 2);
	for (size_t i = 0; i < hr.nanchors; i++)
		assert_string_not_equal(hr.anchors[i].path, "/var/spool/cron/crontabs/t");
	helper_report_free(&hr);
}

/* ------------------------------------------------------------- the kept walk */

static void test_cache(void **state)
{
	(void)state;
	char dir[600], file[700], other[600];
	snprintf(dir, sizeof dir, "%s/cache", root);
	snprintf(file, sizeof file, "%s/host-trees", dir);
	snprintf(other, sizeof other, "%s/etc", root);
	assert_int_equal(mkdir(dir, 0700), 0);
	struct host_trees t;
	assert_int_equal(host_cache_walk(root, 0, 300, 1, dir, &t), 0);
	size_t n0 = t.n;
	host_trees_free(&t);
	struct stat st;
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);

	/* A change after the walk: the kept walk does not see it, a new one does. */
	mk("/etc/late", 0666, 0);
	assert_int_equal(host_cache_walk(root, 0, 300, 0, dir, &t), 0);
	assert_int_equal(t.n, n0);
	assert_null(entry(&t, "/etc/late"));
	host_trees_free(&t);
	assert_int_equal(host_cache_walk(root, 0, 0, 0, dir, &t), 0); /* interval 0: every time */
	assert_non_null(entry(&t, "/etc/late"));
	host_trees_free(&t);

	/* A kept file others could write is never read. */
	assert_int_equal(chmod(file, 0620), 0);
	assert_int_equal(host_cache_walk(root, 0, 300, 0, dir, &t), 0);
	assert_non_null(entry(&t, "/etc/late"));
	host_trees_free(&t);

	/* Nor one cut short. */
	assert_int_equal(host_cache_walk(root, 0, 300, 1, dir, &t), 0);
	host_trees_free(&t);
	assert_int_equal(truncate(file, 60), 0);
	mk("/etc/later", 0666, 0);
	assert_int_equal(host_cache_walk(root, 0, 300, 0, dir, &t), 0);
	assert_non_null(entry(&t, "/etc/later"));
	host_trees_free(&t);

	/* Another fs_root (as other roots or mounts): not that walk. */
	assert_int_equal(host_cache_walk(root, 0, 300, 1, dir, &t), 0);
	host_trees_free(&t);
	assert_int_equal(host_cache_walk(other, 0, 300, 0, dir, &t), 0);
	assert_null(entry(&t, "/etc/later"));
	host_trees_free(&t);

	/* A directory others may enter keeps nothing. */
	assert_int_equal(unlink(file), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(host_cache_walk(root, 0, 300, 1, dir, &t), 0);
	host_trees_free(&t);
	assert_int_equal(access(file, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_permission_rules),
		cmocka_unit_test(test_entry_verdicts),
		cmocka_unit_test(test_walk_keeps_what_others_write),
		cmocka_unit_test(test_hits),
		cmocka_unit_test(test_hits_capped_and_own_crontab),
		cmocka_unit_test(test_cache),
	};
	return cmocka_run_group_tests(tests, setup_tree, teardown_tree);
}
