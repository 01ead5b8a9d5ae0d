/* SPDX-License-Identifier: ISC */
/*
 * test_acl.c - the descriptor walk of ruas-setup acl (tools/ruas-setup/acl_walk.h).
 *
 * Runs as root or as an ordinary user: the tree is the caller's own, in a
 * directory under /tmp, and the owner of a file may set its ACLs. The
 * granted uid needs no account (TARGET). The races themselves are in
 * tests/integration/acl.sh, against a real swapper.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <acl/libacl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/acl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"
#include "acl_walk.h"

#define TARGET 54321

struct fix {
	char base[64];    /* holds the two below */
	char root[80];    /* the tree granted */
	char outside[80]; /* what its links and hard links point at */
	char *msgs;
	size_t msgs_len;
	FILE *err;
	struct acl_tree_stats st;
};

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	snprintf(f->base, sizeof f->base, "/tmp/ruas-acl.XXXXXX");
	*state = f;
	if (!mkdtemp(f->base))
		return -1;
	snprintf(f->root, sizeof f->root, "%s/tree", f->base);
	snprintf(f->outside, sizeof f->outside, "%s/outside", f->base);
	return mkdir(f->root, 0755) == 0 && mkdir(f->outside, 0755) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	rm_rf(f->base);
	if (f->err)
		fclose(f->err);
	free(f->msgs);
	free(f);
	return 0;
}

static char *at(const struct fix *f, const char *rel)
{
	static char buf[8][512];
	static int i;
	char *b = buf[i++ % 8];
	snprintf(b, sizeof buf[0], "%s/%s", f->root, rel);
	return b;
}

/* Runs the walk on dir; messages end up in f->msgs. */
static int grant(struct fix *f, const char *dir, unsigned int max_depth)
{
	if (f->err)
		fclose(f->err);
	free(f->msgs);
	f->msgs = NULL;
	f->err = open_memstream(&f->msgs, &f->msgs_len);
	assert_non_null(f->err);
	alarm(20); /* a FIFO opened without O_NONBLOCK would block here forever */
	int r = acl_grant_tree(dir, TARGET, max_depth, f->err, &f->st);
	alarm(0);
	assert_int_equal(fflush(f->err), 0);
	return r;
}

/* The ACL of path as ",entry,entry,...," with numeric ids. */
static char *acl_text(const char *path, acl_type_t type)
{
	acl_t a = acl_get_file(path, type);
	assert_non_null(a);
	char *t = acl_to_any_text(a, NULL, ',', TEXT_NUMERIC_IDS);
	assert_non_null(t);
	char *out = malloc(strlen(t) + 3);
	assert_non_null(out);
	sprintf(out, ",%s,", t);
	acl_free(t);
	acl_free(a);
	return out;
}

static int acl_has(const char *path, acl_type_t type, const char *entry)
{
	char want[128];
	char *t = acl_text(path, type);
	snprintf(want, sizeof want, ",%s,", entry);
	int r = strstr(t, want) != NULL;
	free(t);
	return r;
}

#define USER_RWX "user:54321:rwx"
#define USER_RW "user:54321:rw-"

static void make_dir(const char *p)
{
	assert_int_equal(mkdir(p, 0755), 0);
}

static void test_tree(void **state)
{
	struct fix *f = *state;
	make_dir(at(f, "sub"));
	make_dir(at(f, "sub/deeper"));
	write_file(at(f, "sub/plain"), "x\n", 0644);
	write_file(at(f, "sub/run"), "#!/bin/sh\n", 0744);
	write_file(at(f, "odd 'name'\n$x"), "x\n", 0600);
	assert_int_equal(grant(f, f->root, 0), 0);
	assert_true(acl_has(f->root, ACL_TYPE_ACCESS, USER_RWX));
	assert_true(acl_has(f->root, ACL_TYPE_DEFAULT, USER_RWX));
	assert_true(acl_has(at(f, "sub/deeper"), ACL_TYPE_ACCESS, USER_RWX));
	assert_true(acl_has(at(f, "sub/deeper"), ACL_TYPE_DEFAULT, USER_RWX));
	/* The default ACL starts from the access ACL's base entries. */
	assert_true(acl_has(at(f, "sub"), ACL_TYPE_DEFAULT, "user::rwx"));
	assert_true(acl_has(at(f, "sub"), ACL_TYPE_DEFAULT, "group::r-x"));
	assert_true(acl_has(at(f, "sub"), ACL_TYPE_DEFAULT, "other::r-x"));
	assert_true(acl_has(at(f, "sub/plain"), ACL_TYPE_ACCESS, USER_RW));
	assert_true(acl_has(at(f, "sub/plain"), ACL_TYPE_ACCESS, "mask::rw-"));
	assert_true(acl_has(at(f, "sub/run"), ACL_TYPE_ACCESS, USER_RWX));
	assert_true(acl_has(at(f, "odd 'name'\n$x"), ACL_TYPE_ACCESS, USER_RW));
	assert_int_equal(f->st.granted, 6);
	assert_int_equal(f->st.changed, 6);
	assert_int_equal(f->msgs_len, 0);
	/* Idempotent: the second run writes nothing. */
	assert_int_equal(grant(f, f->root, 0), 0);
	assert_int_equal(f->st.granted, 6);
	assert_int_equal(f->st.changed, 0);
}

static void test_merge(void **state)
{
	struct fix *f = *state;
	const char *p = at(f, "file");
	write_file(p, "x\n", 0640);
	acl_t a = acl_from_text("u::rw-,u:777:r--,u:54321:r--,g::r--,g:778:rw-,m::rw-,o::---");
	assert_non_null(a);
	assert_int_equal(acl_set_file(p, ACL_TYPE_ACCESS, a), 0);
	acl_free(a);
	assert_int_equal(grant(f, f->root, 0), 0);
	char *t = acl_text(p, ACL_TYPE_ACCESS);
	assert_string_equal(t, ",user::rw-,user:777:r--,user:54321:rw-,group::r--,group:778:rw-,"
			       "mask::rw-,other::---,");
	free(t);
	/* A directory's default ACL that exists is merged into too. */
	const char *d = at(f, "dir");
	make_dir(d);
	a = acl_from_text("u::rwx,u:777:r-x,g::r-x,m::r-x,o::---");
	assert_non_null(a);
	assert_int_equal(acl_set_file(d, ACL_TYPE_DEFAULT, a), 0);
	acl_free(a);
	assert_int_equal(grant(f, f->root, 0), 0);
	t = acl_text(d, ACL_TYPE_DEFAULT);
	assert_string_equal(t, ",user::rwx,user:777:r-x,user:54321:rwx,group::r-x,mask::rwx,"
			       "other::---,");
	free(t);
}

/* Symlinks, FIFOs and sockets are never opened nor followed. */
static void test_not_followed(void **state)
{
	struct fix *f = *state;
	char target[128];
	snprintf(target, sizeof target, "%s/secret", f->outside);
	write_file(target, "s\n", 0600);
	assert_int_equal(symlink(f->outside, at(f, "dirlink")), 0);
	assert_int_equal(symlink(target, at(f, "filelink")), 0);
	assert_int_equal(mkfifo(at(f, "fifo"), 0600), 0);
	assert_int_equal(grant(f, f->root, 0), 0);
	assert_false(acl_has(f->outside, ACL_TYPE_ACCESS, USER_RWX));
	assert_false(acl_has(target, ACL_TYPE_ACCESS, USER_RW));
	assert_false(acl_has(at(f, "fifo"), ACL_TYPE_ACCESS, USER_RW));
	assert_int_equal(f->st.granted, 1);
	assert_int_equal(f->st.skipped, 3);
}

/* A file with other names elsewhere is left alone unless the target owns it. */
static void test_hard_link(void **state)
{
	struct fix *f = *state;
	char outside[128];
	snprintf(outside, sizeof outside, "%s/linked", f->outside);
	write_file(outside, "x\n", 0600);
	assert_int_equal(link(outside, at(f, "link")), 0);
	assert_int_equal(grant(f, f->root, 0), 0);
	assert_false(acl_has(outside, ACL_TYPE_ACCESS, USER_RW));
	assert_int_equal(f->st.linked, 1);
	assert_non_null(strstr(f->msgs, "/link: has other hard links and another owner; not touched"));
}

/* What the target renamed in from elsewhere: owned by a third uid. Needs
 * root (chown); an ordinary user cannot make such a tree. */
static void test_other_owner(void **state)
{
	struct fix *f = *state;
	if (geteuid() != 0)
		skip();
	write_file(at(f, "stolen"), "secret\n", 0600);
	make_dir(at(f, "sdir"));
	write_file(at(f, "sdir/in"), "secret\n", 0600);
	write_file(at(f, "mine"), "x\n", 0600);
	assert_int_equal(chown(at(f, "stolen"), TARGET + 1, TARGET + 1), 0);
	assert_int_equal(chown(at(f, "sdir"), TARGET + 1, TARGET + 1), 0);
	assert_int_equal(chown(at(f, "mine"), TARGET, TARGET), 0);
	assert_int_equal(grant(f, f->root, 0), 0);
	assert_false(acl_has(at(f, "stolen"), ACL_TYPE_ACCESS, USER_RW));
	assert_false(acl_has(at(f, "sdir"), ACL_TYPE_ACCESS, USER_RWX));
	assert_false(acl_has(at(f, "sdir/in"), ACL_TYPE_ACCESS, USER_RW)); /* not entered */
	/* The target's own: granted as it is (its owner bits), its ACL left as the target made it. */
	assert_false(acl_has(at(f, "mine"), ACL_TYPE_ACCESS, USER_RW));
	assert_int_equal(f->st.foreign, 2);
	assert_int_equal(f->st.granted, 2); /* the root and mine */
	assert_int_equal(f->st.changed, 1); /* the root alone */
	assert_non_null(strstr(f->msgs, "/stolen: not granted: owned by "));
	assert_non_null(strstr(f->msgs, "uid 54322, neither the target nor the owner of work_dir"));
}

static void test_depth(void **state)
{
	struct fix *f = *state;
	char p[256];
	snprintf(p, sizeof p, "%s/1", f->root);
	make_dir(p);
	strcat(p, "/2");
	make_dir(p);
	strcat(p, "/3");
	make_dir(p);
	strcat(p, "/4");
	make_dir(p);
	assert_int_equal(grant(f, f->root, 3), -1);
	assert_true(acl_has(at(f, "1/2/3"), ACL_TYPE_ACCESS, USER_RWX));
	assert_false(acl_has(at(f, "1/2/3/4"), ACL_TYPE_ACCESS, USER_RWX));
	assert_non_null(strstr(f->msgs, "/1/2/3/4: more than 3 levels below work_dir; not granted"));
}

static void test_refused_roots(void **state)
{
	struct fix *f = *state;
	make_dir(at(f, "real"));
	assert_int_equal(symlink(f->outside, at(f, "top")), 0);
	assert_int_equal(symlink(at(f, "real"), at(f, "via")), 0);
	write_file(at(f, "file"), "x\n", 0600);

	assert_int_equal(grant(f, at(f, "top"), 0), -1);
	assert_non_null(strstr(f->msgs, "/top is a symlink; refusing"));
	assert_false(acl_has(f->outside, ACL_TYPE_ACCESS, USER_RWX));

	char p[256];
	snprintf(p, sizeof p, "%s/via/.", f->root);
	assert_int_equal(grant(f, p, 0), -1);
	assert_non_null(strstr(f->msgs, "component \"via\" is a symlink; refusing"));
	snprintf(p, sizeof p, "%s/real/../real", f->root);
	assert_int_equal(grant(f, p, 0), -1);
	assert_non_null(strstr(f->msgs, "has a \"..\" component"));
	assert_int_equal(grant(f, at(f, "file"), 0), -1);
	assert_non_null(strstr(f->msgs, "is not a directory"));
	assert_int_equal(grant(f, at(f, "missing"), 0), -1);
	assert_non_null(strstr(f->msgs, "No such file or directory"));
	assert_int_equal(grant(f, "/", 0), -1);
	assert_non_null(strstr(f->msgs, "whole filesystem"));
	assert_int_equal(grant(f, "//./", 0), -1);
	assert_non_null(strstr(f->msgs, "whole filesystem"));
	assert_int_equal(grant(f, "relative", 0), -1);
	assert_non_null(strstr(f->msgs, "absolute"));
	assert_false(acl_has(at(f, "real"), ACL_TYPE_ACCESS, USER_RWX));

	/* Trailing slashes and "." are fine. */
	snprintf(p, sizeof p, "%s/./real//", f->root);
	assert_int_equal(grant(f, p, 0), 0);
	assert_true(acl_has(at(f, "real"), ACL_TYPE_ACCESS, USER_RWX));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hard_link, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_owner, setup, teardown),
		cmocka_unit_test_setup_teardown(test_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_roots, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
