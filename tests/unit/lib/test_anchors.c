/* SPDX-License-Identifier: ISC */
/*
 * test_anchors.c - trust anchors: the table (src/common/anchors_table.c) and its
 * documentation, the probe that judges them as the target user
 * (src/helper/exec/anchor_probe.h), the REPORT's ANCHOR and ANCHORS records
 * (src/proto/helper_report.h) and the findings' texts
 * (src/lib/check/anchors_report.h).
 *
 * The probe runs in a child that, when this test runs as root, becomes
 * nobody: then root-owned fixtures with loose modes are what a target could
 * write. As an ordinary user the child stays itself, owns every fixture,
 * and only the owner verdict can be tested.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "words.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "anchor_probe.h"
#include "anchors.h"
#include "check/anchors_report.h"
#include "check/report_names.h"
#include "buf.h"
#include "fixture.h"
#include "codec.h"
#include "helper_report.h"
#include "helper_report_write.h"
#include "payload.h"

#define NOBODY_UID 65534
#define NOBODY_GID 65534

/* ------------------------------------------------------------- the table */

static void test_table_well_formed(void **state)
{
	(void)state;
	static const char *const runtime_ids[] = {"sudo", "helper", "supervisor-program",
						  "config", "config-dir", "supervisor-home",
						  "supervisor-dot", "root-path", NULL};
	for (size_t i = 0; i < anchor_table_len; i++) {
		const struct anchor_def *d = &anchor_table[i];
		size_t n = strlen(d->id);
		if (n == 0 || n > ANCHOR_ID_MAX ||
		    strspn(d->id, "abcdefghijklmnopqrstuvwxyz0123456789-") != n)
			fail_msg("entry %zu: bad id \"%s\"", i, d->id);
		if (d->path && d->path[0] != '/')
			fail_msg("entry %zu: path \"%s\" is not absolute", i, d->path);
		if ((d->kind == ANCHOR_TREE) != (d->depth > 0))
			fail_msg("entry %zu (%s): a tree, and only a tree, has a depth", i, d->id);
		const struct anchor_def *first = anchor_by_id(d->id);
		assert_non_null(first);
		if (!first->why)
			fail_msg("id \"%s\": its first entry has no why", d->id);
		if (d != first && d->why && strcmp(d->why, first->why) != 0)
			fail_msg("id \"%s\": entries disagree on why", d->id);
	}
	for (const char *const *id = runtime_ids; *id; id++)
		if (!anchor_by_id(*id))
			fail_msg("id \"%s\", filled at run time, is not in the table", *id);
	assert_null(anchor_by_id("no-such-id"));
}

/* docs/security.md has the table: every path and id of the code must be there. */
static void test_docs_list_every_entry(void **state)
{
	(void)state;
	const char *top = getenv("abs_top_srcdir");
	if (!top) {
		print_message("SKIP: abs_top_srcdir is not set (run through make check)\n");
		skip();
	}
	struct buf path = BUF_INIT, doc = BUF_INIT;
	buf_printf(&path, "%s/docs/security.md", top);
	FILE *f = fopen(path.data, "re");
	assert_non_null(f);
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&doc, chunk, n);
	fclose(f);
	assert_false(doc.oom);
	for (size_t i = 0; i < anchor_table_len; i++) {
		const struct anchor_def *d = &anchor_table[i];
		char want[512];
		snprintf(want, sizeof want, "`%s`", d->path ? d->path : d->id);
		if (!strstr(doc.data, want))
			fail_msg("docs/security.md does not list %s (id %s)", want, d->id);
		snprintf(want, sizeof want, "| `%s` |", d->id);
		if (!strstr(doc.data, want))
			fail_msg("docs/security.md has no row with id %s", want);
	}
	buf_free(&path);
	buf_free(&doc);
}

/* ------------------------------------------------------------- the probe */

struct fix {
	char root[64];
	int as_root;
};

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	snprintf(f->root, sizeof f->root, "/tmp/ruas-anchors.XXXXXX");
	if (!mkdtemp(f->root) || chmod(f->root, 0755) < 0) {
		free(f);
		return -1;
	}
	f->as_root = geteuid() == 0;
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
	char *p;
	assert_true(asprintf(&p, "%s/%s", f->root, rel) > 0);
	return p;
}

static void mk(const struct fix *f, const char *rel, mode_t mode)
{
	char *p = at(f, rel);
	write_file(p, "x\n", mode);
	free(p);
}

static void mkd(const struct fix *f, const char *rel, mode_t mode)
{
	char *p = at(f, rel);
	assert_int_equal(mkdir(p, 0700), 0);
	assert_int_equal(chmod(p, mode), 0);
	free(p);
}

static void give_to_nobody(const struct fix *f, const char *rel)
{
	char *p = at(f, rel);
	assert_int_equal(lchown(p, NOBODY_UID, NOBODY_GID), 0);
	free(p);
}

/* Findings as lines "HOW REL ID PATH -> ANCHOR", with the fixture root as "R". */
struct collect {
	const char *root;
	struct buf out;
};

static void shorten(struct buf *b, const char *root, const char *path)
{
	size_t n = strlen(root);
	if (strncmp(path, root, n) == 0) {
		buf_addc(b, 'R');
		buf_adds(b, path + n);
	} else {
		buf_adds(b, path);
	}
}

static void collect(void *ctx, const struct anchor_finding *fd)
{
	static const char *const rels[] = {"?", "self", "parent", "inside", "link"};
	struct collect *c = ctx;
	buf_printf(&c->out, "%c %s %s ", fd->how, rels[fd->rel], fd->id);
	shorten(&c->out, c->root, fd->path);
	buf_adds(&c->out, " -> ");
	shorten(&c->out, c->root, fd->anchor);
	buf_addc(&c->out, '\n');
}

/*
 * Runs anchors_probe on items in a child (as nobody when root) and returns
 * its findings, one line each, sorted as the probe emits them.
 */
static char *probe_judged(const struct fix *f, const struct anchor_item *items, size_t n,
			  const char *self, char *const *judged, size_t njudged)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		if (f->as_root && (setgroups(0, NULL) < 0 || setgid(NOBODY_GID) < 0 ||
				   setuid(NOBODY_UID) < 0))
			_exit(77);
		struct collect c = {f->root, BUF_INIT};
		size_t failed = anchors_probe(items, n, self, judged, njudged, collect, &c);
		buf_printf(&c.out, "failed %zu\n", failed);
		ssize_t w = write(p[1], c.out.data, c.out.len);
		buf_free(&c.out);
		_exit(w < 0 ? 1 : 0);
	}
	close(p[1]);
	struct buf out = BUF_INIT;
	char chunk[4096];
	ssize_t r;
	while ((r = read(p[0], chunk, sizeof chunk)) > 0)
		buf_add(&out, chunk, (size_t)r);
	close(p[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77) {
		buf_free(&out);
		print_message("SKIP: cannot become uid %d\n", NOBODY_UID);
		skip();
	}
	assert_int_equal(WEXITSTATUS(st), 0);
	return buf_detach(&out);
}

static char *probe_as_target(const struct fix *f, const struct anchor_item *items, size_t n,
			     const char *self)
{
	return probe_judged(f, items, n, self, NULL, 0);
}

static void assert_lines(const char *got, const char *want)
{
	if (strcmp(got, want) != 0)
		fail_msg("findings differ.\n--- got:\n%s--- want:\n%s", got, want);
}

static const struct anchor_def FILE_DEF = {NULL, ANCHOR_FILE, 0, 0, "users", "w", NULL};
static const struct anchor_def DIR_DEF = {NULL, ANCHOR_DIR, 0, 0, "root-path", "w", NULL};
static const struct anchor_def TREE_DEF = {NULL, ANCHOR_TREE, 1, ANCHOR_SKIP_SELF, "cron",
					   "w", NULL};
static const struct anchor_def SOCK_DEF = {NULL, ANCHOR_SOCKET, 0, 0, "docker", "w", NULL};
static const struct anchor_def DEV_DEF = {NULL, ANCHOR_DEVICE, 0, 0, "disk", "w", NULL};

static void mk_socket(const struct fix *f, const char *rel, mode_t mode)
{
	char *p = at(f, rel);
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	assert_true(strlen(p) < sizeof a.sun_path);
	strcpy(a.sun_path, p);
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(s >= 0);
	assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof a), 0);
	close(s);
	assert_int_equal(chmod(p, mode), 0);
	free(p);
}

/* As root, with the probe as nobody: every verdict and relation. */
static void test_probe_verdicts(void **state)
{
	struct fix *f = *state;
	if (!f->as_root) {
		print_message("SKIP: needs root to make root-owned fixtures\n");
		skip();
	}
	mk(f, "ok", 0644);
	mk(f, "world", 0666);
	mk(f, "mine", 0644);
	give_to_nobody(f, "mine");
	mkd(f, "open", 0777);
	mk(f, "open/file", 0644);
	mkd(f, "sticky", 01777);
	mk(f, "sticky/file", 0644);
	mkd(f, "tree", 0755);
	mk(f, "tree/a", 0644);
	mk(f, "tree/b", 0666);
	mkd(f, "tree/sub", 0777);
	mk(f, "tree/sub/deep", 0666); /* below the tree's depth of 1 */
	mk(f, "tree/nobody", 0644);   /* the target's own (ANCHOR_SKIP_SELF) */
	give_to_nobody(f, "tree/nobody");
	char *masked = at(f, "tree/masked"); /* a systemd unit masked: fine */
	assert_int_equal(symlink("/dev/null", masked), 0);
	free(masked);
	mk(f, "elsewhere", 0666);
	char *target = at(f, "elsewhere");
	char *link = at(f, "link");
	assert_int_equal(symlink(target, link), 0);
	mk(f, "g1", 0666);
	mk(f, "g2", 0644);
	mk(f, "notsock", 0666);
	mk_socket(f, "sock", 0777);
	mk_socket(f, "closedsock", 0755);
	char *dev = at(f, "dev-rw"), *devr = at(f, "dev-r");
	assert_int_equal(mknod(dev, S_IFCHR | 0666, makedev(1, 3)), 0);
	assert_int_equal(mknod(devr, S_IFCHR | 0644, makedev(1, 3)), 0);
	assert_int_equal(chmod(dev, 0666), 0);
	assert_int_equal(chmod(devr, 0644), 0);
	mk(f, "notdev", 0666);

	char *p[32];
	const char *rels[] = {"ok", "world", "mine", "open/file", "sticky/file", "tree",
			      "link", "g*", "notsock", "sock", "closedsock", "dev-rw", "dev-r",
			      "notdev", "missing", "open/missing/below", "world"};
	const struct anchor_def *defs[] = {&FILE_DEF, &FILE_DEF, &FILE_DEF, &FILE_DEF,
					   &FILE_DEF, &TREE_DEF, &FILE_DEF, &FILE_DEF,
					   &SOCK_DEF, &SOCK_DEF, &SOCK_DEF, &DEV_DEF,
					   &DEV_DEF, &DEV_DEF, &FILE_DEF, &DIR_DEF, &FILE_DEF};
	size_t n = sizeof rels / sizeof *rels;
	struct anchor_item items[32];
	for (size_t i = 0; i < n; i++) {
		p[i] = at(f, rels[i]);
		items[i] = (struct anchor_item){p[i], defs[i]};
	}
	char *got = probe_as_target(f, items, n, "nobody");
	assert_lines(got, "w self users R/world -> R/world\n"
			  "o self users R/mine -> R/mine\n"
			  "w parent users R/open -> R/open/file\n"
			  "w inside cron R/tree/b -> R/tree\n"
			  "w inside cron R/tree/sub -> R/tree\n"
			  "w link users R/elsewhere -> R/link\n"
			  "w self users R/g1 -> R/g1\n"
			  "w self docker R/sock -> R/sock\n"
			  "w self disk R/dev-rw -> R/dev-rw\n"
			  "r self disk R/dev-r -> R/dev-r\n"
			  "failed 10\n");
	free(got);
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(target);
	free(link);
	free(dev);
	free(devr);
}

static void ln(const struct fix *f, const char *to_rel, const char *rel)
{
	char *to = at(f, to_rel), *p = at(f, rel);
	assert_int_equal(symlink(to, p), 0);
	free(to);
	free(p);
}

/*
 * A chain of symlinks whose middle hop lies in a directory the target owns
 * or may write: it repoints the hop, so the chain is judged link by link,
 * not only where it ends (realpath() saw only R/real and R/realpre).
 */
static void test_probe_symlink_chain(void **state)
{
	struct fix *f = *state;
	if (!f->as_root) {
		print_message("SKIP: needs root to make root-owned fixtures\n");
		skip();
	}
	mkd(f, "pd", 0755);
	mkd(f, "hop", 0755);
	give_to_nobody(f, "hop");
	mkd(f, "hop2", 0777);
	mk(f, "real", 0644);
	mk(f, "realpre", 0644);
	ln(f, "real", "hop/job");
	ln(f, "hop/job", "pd/zz.sh");
	ln(f, "realpre", "hop2/pre");
	ln(f, "hop2/pre", "preload");
	char *loop = at(f, "loop");
	assert_int_equal(symlink("loop", loop), 0);
	char *p = at(f, "pd"), *q = at(f, "preload");
	struct anchor_item items[] = {{p, &TREE_DEF}, {q, &FILE_DEF}, {loop, &FILE_DEF}};
	char *got = probe_as_target(f, items, 3, NULL);
	assert_lines(got, "o link cron R/hop -> R/pd/zz.sh\n"
			  "w link users R/hop2 -> R/preload\nfailed 2\n");
	free(got);
	free(p);
	free(q);
	free(loop);
}

/* Past the cap of entries, the tree is not passed: a 'c' finding names it. */
static void test_probe_tree_cap(void **state)
{
	struct fix *f = *state;
	mkd(f, "big", 0755);
	for (unsigned int i = 0; i <= ANCHOR_TREE_ENTRIES_MAX; i++) {
		char rel[64];
		snprintf(rel, sizeof rel, "big/f%u", i);
		char *p = at(f, rel);
		int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		assert_true(fd >= 0);
		close(fd);
		free(p);
	}
	char *p = at(f, "big");
	struct anchor_item items[] = {{p, &TREE_DEF}};
	char *got = probe_as_target(f, items, 1, NULL);
	assert_lines(got, f->as_root ? "c self cron R/big -> R/big\nfailed 1\n"
				     : "o self cron R/big -> R/big\nc self cron R/big -> R/big\n"
				       "failed 2\n");
	free(got);
	free(p);
}

/* A writable directory above a missing anchor: the target could create it. */
static void test_probe_missing_but_creatable(void **state)
{
	struct fix *f = *state;
	if (!f->as_root) {
		print_message("SKIP: needs root to make root-owned fixtures\n");
		skip();
	}
	mkd(f, "etc", 0777);
	mkd(f, "st", 01777); /* sticky: it may create the missing anchor there */
	mk(f, "st/file", 0644); /* a file where a directory should be: root's, in a sticky one */
	mkd(f, "open2", 0777);
	mk(f, "open2/file", 0644); /* the same in a directory it may write: replaced */
	char *p = at(f, "etc/ld.so.preload"), *q = at(f, "etc/nodir/x");
	char *r = at(f, "st/ld.so.preload"), *u = at(f, "st/file/conf");
	char *v = at(f, "open2/file/conf");
	struct anchor_item items[] = {{p, &FILE_DEF}, {q, &FILE_DEF}, {r, &FILE_DEF},
				      {u, &FILE_DEF}, {v, &FILE_DEF}};
	char *got = probe_as_target(f, items, 5, NULL);
	assert_lines(got, "w parent users R/etc -> R/etc/ld.so.preload\n"
			  "w parent users R/st -> R/st/ld.so.preload\n"
			  "w parent users R/open2 -> R/open2/file/conf\nfailed 3\n");
	free(got);
	free(p);
	free(q);
	free(r);
	free(u);
	free(v);
}

/* The configuration's directory may be sticky (/tmp): only the file is read from it. */
static void test_probe_sticky_config_dir(void **state)
{
	struct fix *f = *state;
	if (!f->as_root) {
		print_message("SKIP: needs root to make root-owned fixtures\n");
		skip();
	}
	mkd(f, "tmp", 01777);
	mkd(f, "open", 0777);
	const struct anchor_def *cd = anchor_by_id("config-dir");
	assert_non_null(cd);
	char *p = at(f, "tmp"), *q = at(f, "open");
	/*
	 * As a PATH directory the sticky one is not fine: new names can be
	 * created there. The lenient verdict does not hide the strict one.
	 */
	struct anchor_item items[] = {{p, cd}, {q, cd}, {p, &DIR_DEF}};
	char *got = probe_as_target(f, items, 3, NULL);
	assert_lines(got, "w self config-dir R/open -> R/open\n"
			  "w self root-path R/tmp -> R/tmp\nfailed 2\n");
	free(got);
	free(p);
	free(q);
}

/* As anyone: its own files are owned (o); root's own files and missing paths are fine. */
static void test_probe_owned_and_system(void **state)
{
	struct fix *f = *state;
	mkd(f, "d", 0755);
	mk(f, "d/f", 0600);
	if (f->as_root) {
		give_to_nobody(f, "d");
		give_to_nobody(f, "d/f");
	}
	char *p = at(f, "d/f");
	struct anchor_item items[] = {
		{p, &FILE_DEF},
		{"/etc/passwd", &FILE_DEF},
		{"/nonexistent/ruas/anchor", &FILE_DEF},
		{"relative/path", &FILE_DEF},
	};
	char *got = probe_as_target(f, items, 4, NULL);
	/* As an ordinary user, the fixture's root is this user's too. */
	assert_lines(got, f->as_root ? "o parent users R/d -> R/d/f\no self users R/d/f -> R/d/f\n"
				       "failed 2\n"
				     : "o parent users R -> R/d/f\no parent users R/d -> R/d/f\n"
				       "o self users R/d/f -> R/d/f\nfailed 3\n");
	free(got);
	free(p);
}

/* The real table, as the target on this host: nothing fails on a sane one. */
static void test_probe_table_clean_here(void **state)
{
	struct fix *f = *state;
	if (!f->as_root) {
		print_message("SKIP: as an ordinary user the table judges this user, "
			      "not a target\n");
		skip();
	}
	struct anchor_item items[256];
	size_t n = 0;
	for (size_t i = 0; i < anchor_table_len && n < 256; i++)
		if (anchor_table[i].path)
			items[n++] = (struct anchor_item){anchor_table[i].path, &anchor_table[i]};
	char *got = probe_as_target(f, items, n, "nobody");
	assert_lines(got, "failed 0\n");
	free(got);
}

static void test_secure_path(void **state)
{
	(void)state;
	char *s = anchors_secure_path(
		"Matching Defaults entries for t on h:\n"
		"    env_reset, mail_badpass,\n"
		"    secure_path=/usr/local/sbin\\:/usr/local/bin\\:/opt/x\\:/usr/bin, use_pty\n");
	assert_string_equal(s, "/usr/local/sbin:/usr/local/bin:/opt/x:/usr/bin");
	free(s);
	s = anchors_secure_path("    secure_path=\"/a\\:/b\"\r\n");
	assert_string_equal(s, "/a:/b");
	free(s);
	assert_null(anchors_secure_path("sudo: a password is required\n"));
	assert_null(anchors_secure_path(NULL));
	assert_null(anchors_secure_path("secure_path=, x"));
}

/* ----------------------------------------------------------- the REPORT */

/* An ANCHOR record's fields, as raw as the wire takes them (so that any may be out of range). */
struct raw_anchor {
	const char *path;
	unsigned int how, rel;
	const char *id;
	uint32_t mode;
	uint32_t uid, gid;
	unsigned int acl;
	const char *anchor;
};

/* A valid one: /etc/passwd, writable by the target, itself, the users entry. */
static struct raw_anchor valid_anchor(void)
{
	return (struct raw_anchor){"/etc/passwd", 'w', AREL_SELF, "users", 0666, 0, 0,
				   0, "/etc/passwd"};
}

/* One ANCHOR record, byte for byte as helper_report.h gives its grammar. */
static void anchor_rec(struct buf *b, const struct raw_anchor *a)
{
	enc_u8(b, REC_ANCHOR);
	assert_int_equal(enc_str(b, a->path), 0);
	enc_u8(b, a->how);
	enc_u8(b, a->rel);
	assert_int_equal(enc_str(b, a->id), 0);
	enc_u32(b, a->mode);
	enc_u32(b, a->uid);
	enc_u32(b, a->gid);
	enc_u8(b, a->acl);
	assert_int_equal(enc_str(b, a->anchor), 0);
}

/* ANCHORS TOTAL. */
static void anchors_rec(struct buf *b, uint64_t total)
{
	enc_u8(b, REC_ANCHORS);
	enc_u64(b, total);
}

/*
 * A helper's REPORT with the records every report needs but ANCHORS (ESC
 * both ways, GIDS), then the records of body; decoded for a check of no
 * work_dirs. The decoder's result; *r is the helper's half.
 */
static int parse_bytes(const void *body, size_t len, struct helper_report *r)
{
	struct buf b = BUF_INIT;
	gid_t none[1] = {0};
	report_begin(&b, REPORT_FROM_HELPER);
	report_put_esc(&b, 0, 1, 1, "", 0);
	report_put_esc(&b, 1, 1, 1, "", 0);
	report_put_gids(&b, 100, none, 0);
	assert_int_equal(buf_add(&b, body, len), 0);
	struct report rep;
	const char *why = NULL;
	int rc = report_decode(b.data, b.len, 0, &rep, &why);
	assert_true(rc == 0 || why);
	*r = rep.helper;
	buf_free(&b);
	return rc;
}

static int parse(const struct buf *body, struct helper_report *r)
{
	return parse_bytes(body->data, body->len, r);
}

static void assert_parse(const struct buf *body, int want, const char *what)
{
	struct helper_report r;
	int rc = parse(body, &r);
	if (rc != want)
		fail_msg("decode gave %d, expected %d, for: %s", rc, want, what);
	helper_report_free(&r);
}

static void test_records_well_formed(void **state)
{
	(void)state;
	/* The writer's record is the grammar's, byte for byte. */
	struct raw_anchor raw = {"/usr/local", 'o', AREL_PARENT, "root-path", 02775, 1234, 50, 1,
				 "/usr/local/bin"};
	struct report_anchor w = {"/usr/local", 'o', AREL_PARENT, "root-path", 02775, 1234, 50,
				  1, "/usr/local/bin"};
	struct buf want = BUF_INIT, got = BUF_INIT;
	anchor_rec(&want, &raw);
	anchors_rec(&want, 1);
	report_put_anchor(&got, &w);
	report_put_anchors(&got, 1);
	assert_int_equal(got.len, want.len);
	assert_memory_equal(got.data, want.data, want.len);
	buf_free(&want);

	struct helper_report r;
	assert_int_equal(parse(&got, &r), 0);
	assert_true(r.complete);
	assert_int_equal(r.nanchors, 1);
	assert_true(r.anchors_seen);
	assert_int_equal(r.anchors_total, 1);
	assert_string_equal(r.anchors[0].path, "/usr/local");
	assert_int_equal(r.anchors[0].how, 'o');
	assert_int_equal(r.anchors[0].rel, AREL_PARENT);
	assert_string_equal(r.anchors[0].id, "root-path");
	assert_int_equal(r.anchors[0].mode, 02775);
	assert_int_equal(r.anchors[0].uid, 1234);
	assert_int_equal(r.anchors[0].gid, 50);
	/* Numbers on the wire: the library names them (report_names.h). */
	assert_null(r.anchors[0].owner);
	assert_null(r.anchors[0].group);
	assert_int_equal(r.anchors[0].acl, 1);
	assert_string_equal(r.anchors[0].anchor, "/usr/local/bin");
	helper_report_free(&r);
	buf_free(&got);

	/* Every HOW and REL the grammar names. */
	static const char hows[] = "owrdc";
	for (size_t i = 0; hows[i]; i++)
		for (int rel = AREL_SELF; rel <= AREL_LINK; rel++) {
			struct raw_anchor a = valid_anchor();
			a.how = (unsigned char)hows[i];
			a.rel = (unsigned int)rel;
			struct buf b = BUF_INIT;
			anchor_rec(&b, &a);
			anchors_rec(&b, 1);
			assert_int_equal(parse(&b, &r), 0);
			assert_int_equal(r.anchors[0].how, hows[i]);
			assert_int_equal(r.anchors[0].rel, rel);
			helper_report_free(&r);
			buf_free(&b);
		}

	struct buf none = BUF_INIT;
	anchors_rec(&none, 0);
	assert_parse(&none, 0, "anchors 0");
	buf_free(&none);
}

static void test_records_malformed(void **state)
{
	(void)state;
	/* Each field out of range, one at a time. */
	static const char long_id[] = "abcdefghijabcdefghijabcdefghijabc"; /* 33 */
	struct {
		const char *what;
		struct raw_anchor a;
	} bad[9 + 8];
	size_t n = 0;
#define BAD(w, field, value)                                                                       \
	do {                                                                                       \
		bad[n].what = (w);                                                                 \
		bad[n].a = valid_anchor();                                                         \
		bad[n].a.field = (value);                                                          \
		n++;                                                                               \
	} while (0)
	BAD("how x", how, 'x');
	BAD("how W", how, 'W');
	BAD("how NUL", how, 0);
	BAD("rel 0", rel, 0);
	BAD("rel past link", rel, AREL_LINK + 1);
	BAD("id Users", id, "Users");
	BAD("id a b", id, "a b");
	BAD("id empty", id, "");
	BAD("id of 33 bytes", id, long_id);
	BAD("mode 010000", mode, 010000);
	BAD("mode 017777", mode, 017777);
	BAD("mode 0xffffffff", mode, 0xffffffffu);
	BAD("acl 2", acl, 2);
	BAD("acl 255", acl, 255);
	BAD("relative path", path, "relative");
	BAD("relative anchor", anchor, "etc/passwd");
	BAD("empty path", path, "");
#undef BAD
	assert_int_equal(n, sizeof bad / sizeof bad[0]);
	for (size_t i = 0; i < n; i++) {
		struct buf b = BUF_INIT;
		anchor_rec(&b, &bad[i].a);
		anchors_rec(&b, 1);
		assert_parse(&b, -1, bad[i].what);
		buf_free(&b);
	}

	/* No summary: an absent check must not pass. */
	struct buf empty = BUF_INIT;
	assert_parse(&empty, -1, "no anchors record");
	struct raw_anchor good = valid_anchor();
	struct buf b = BUF_INIT;
	anchor_rec(&b, &good);
	assert_parse(&b, -1, "a record without the summary");
	/* A count below the records, or above them without the cap reached. */
	struct buf c = BUF_INIT;
	buf_add(&c, b.data, b.len);
	anchors_rec(&c, 0);
	assert_parse(&c, -1, "anchors 0 after one record");
	buf_free(&c);
	c = (struct buf)BUF_INIT;
	buf_add(&c, b.data, b.len);
	anchors_rec(&c, 2);
	assert_parse(&c, -1, "anchors 2 after one record");
	buf_free(&c);
	/* A record after the summary, and a second summary. */
	c = (struct buf)BUF_INIT;
	anchors_rec(&c, 0);
	buf_add(&c, b.data, b.len);
	assert_parse(&c, -1, "a record after the summary");
	buf_free(&c);
	c = (struct buf)BUF_INIT;
	anchors_rec(&c, 0);
	anchors_rec(&c, 0);
	assert_parse(&c, -1, "two summaries");
	buf_free(&c);
	/* A summary cut short (7 bytes of its 8), and the largest count with no record. */
	c = (struct buf)BUF_INIT;
	anchors_rec(&c, 0);
	c.len--;
	assert_parse(&c, -1, "a cut summary");
	buf_free(&c);
	c = (struct buf)BUF_INIT;
	anchors_rec(&c, UINT64_MAX);
	assert_parse(&c, -1, "anchors UINT64_MAX");
	buf_free(&c);
	/* A NUL inside the path, and a path longer than the record. */
	c = (struct buf)BUF_INIT;
	enc_u8(&c, REC_ANCHOR);
	enc_u32(&c, 4);
	buf_add(&c, "/e\0c", 4);
	buf_add(&c, b.data + 1 + 4 + strlen(good.path), b.len - 1 - 4 - strlen(good.path));
	anchors_rec(&c, 1);
	assert_parse(&c, -1, "a NUL in the path");
	buf_free(&c);
	c = (struct buf)BUF_INIT;
	enc_u8(&c, REC_ANCHOR);
	enc_u32(&c, 1000);
	buf_add(&c, "/etc", 4);
	assert_parse(&c, -1, "a path past the record's end");
	buf_free(&c);
	/* Every cut of a good record and its summary. */
	anchors_rec(&b, 1);
	assert_parse(&b, 0, "the control");
	for (size_t k = 0; k < b.len; k++) {
		struct helper_report r;
		if (parse_bytes(b.data, k, &r) == 0)
			fail_msg("a report cut to %zu of its anchor bytes was accepted", k);
		helper_report_free(&r);
	}
	buf_free(&b);
}

static void test_records_cap(void **state)
{
	(void)state;
	struct raw_anchor a = valid_anchor();
	struct buf b = BUF_INIT;
	for (unsigned int i = 0; i < ANCHOR_REPORT_CAP; i++)
		anchor_rec(&b, &a);
	struct buf c = BUF_INIT;
	buf_add(&c, b.data, b.len);
	anchors_rec(&c, 1000);
	struct helper_report r;
	assert_int_equal(parse(&c, &r), 0);
	assert_int_equal(r.nanchors, ANCHOR_REPORT_CAP);
	assert_int_equal(r.anchors_total, 1000);
	helper_report_free(&r);
	buf_free(&c);
	/* At the cap, the count may be the records' own too. */
	c = (struct buf)BUF_INIT;
	buf_add(&c, b.data, b.len);
	anchors_rec(&c, ANCHOR_REPORT_CAP);
	assert_parse(&c, 0, "anchors at the cap");
	buf_free(&c);
	/* One past the cap is refused. */
	anchor_rec(&b, &a);
	c = (struct buf)BUF_INIT;
	buf_add(&c, b.data, b.len);
	anchors_rec(&c, 1000);
	assert_parse(&c, -1, "one anchor past the cap");
	buf_free(&c);
	buf_free(&b);
}

/*
 * The helper sends numbers; the library names them as ls(1) would: the
 * user database's name, the number where there is none, "?" where the
 * helper could not stat the entry. Each field of each record is filled.
 */
static void test_report_names(void **state)
{
	(void)state;
	struct passwd *pw = getpwuid(0);
	struct group *gr = getgrgid(0);
	const char *root_user = pw ? pw->pw_name : "0", *root_group = gr ? gr->gr_name : "0";
	struct helper_report r;
	memset(&r, 0, sizeof r);
	struct scan_item items[3] = {{strdup("/w/a"), 1, 0600, 0, NULL},
				     {strdup("/w/b"), 1, 0600, 4000000123u, NULL},
				     {strdup("/w/c"), 1, 0, REPORT_UID_UNKNOWN, NULL}};
	struct dir_result dirs[2];
	memset(dirs, 0, sizeof dirs);
	dirs[0].state = DIR_OK;
	dirs[0].items = malloc(sizeof items);
	assert_non_null(dirs[0].items);
	memcpy(dirs[0].items, items, sizeof items);
	dirs[0].nitems = 3;
	dirs[1].state = DIR_DENIED;
	dirs[1].uid = 4000000124u;
	r.dirs = malloc(sizeof dirs);
	assert_non_null(r.dirs);
	memcpy(r.dirs, dirs, sizeof dirs);
	r.ndirs = 2;
	r.anchors = calloc(2, sizeof *r.anchors);
	assert_non_null(r.anchors);
	r.anchors[0].uid = 0;
	r.anchors[0].gid = 0;
	r.anchors[1].uid = 4000000123u;
	r.anchors[1].gid = 4000000125u;
	r.nanchors = 2;
	assert_int_equal(report_names_fill(&r), 0);
	assert_string_equal(r.dirs[0].items[0].owner, root_user);
	assert_string_equal(r.dirs[0].items[1].owner, "4000000123");
	assert_string_equal(r.dirs[0].items[2].owner, "?");
	assert_string_equal(r.dirs[1].owner, "4000000124");
	assert_string_equal(r.anchors[0].owner, root_user);
	assert_string_equal(r.anchors[0].group, root_group);
	assert_string_equal(r.anchors[1].owner, "4000000123");
	assert_string_equal(r.anchors[1].group, "4000000125");
	/* Again: each field is replaced, not leaked (valgrind and ASan watch). */
	assert_int_equal(report_names_fill(&r), 0);
	assert_string_equal(r.dirs[0].items[0].owner, root_user);
	helper_report_free(&r);
}

/* ------------------------------------------------------------- the texts */

static struct anchor_hit hit(const char *path, char how, int rel, const char *id,
			     unsigned int mode, const char *group, int acl, const char *anchor)
{
	struct anchor_hit a = {(char *)path, how, rel, "", mode, 0, 0, (char *)"root",
			       (char *)group, acl, (char *)anchor};
	snprintf(a.id, sizeof a.id, "%s", id);
	return a;
}

static void assert_text(const struct anchor_hit *a, const char *want)
{
	char *t = text_of(msg_anchor("t1", "sup", a));
	assert_non_null(t);
	if (strcmp(t, want) != 0)
		fail_msg("text differs.\n--- got:\n%s--- want:\n%s", t, want);
	free(t);
}

static void test_texts(void **state)
{
	(void)state;
	struct anchor_hit a = hit("/etc/passwd", 'w', AREL_SELF, "users", 0644, "root", 1,
				  "/etc/passwd");
	assert_text(&a, "ERROR: target user \"t1\" can write \"/etc/passwd\", which root runs or "
			"trusts: the user and group database: a line with uid or gid 0 is root.\n"
			"It has mode 0644, owner \"root\", group \"root\" and an ACL.\n"
			"Fix: remove the ACL entry that grants it: setfacl -x u:t1 /etc/passwd "
			"(getfacl /etc/passwd lists them; a group's goes with setfacl -x "
			"g:GROUP). Then restart ruas.\n");
	a = hit("/usr/local/bin", 'w', AREL_SELF, "root-path", 02775, "staff", 0,
		"/usr/local/bin");
	assert_text(&a, "ERROR: target user \"t1\" can write \"/usr/local/bin\", which root runs "
			"or trusts: a directory in root's PATH or sudo's secure_path: a program "
			"put there runs as root when root types its name.\n"
			"It has mode 2775, owner \"root\", group \"staff\".\n"
			"Fix: take \"t1\" out of group \"staff\" (gpasswd -d t1 staff) or chmod "
			"g-w /usr/local/bin. Then restart ruas.\n");
	a = hit("/etc/sudoers.d", 'w', AREL_PARENT, "sudoers", 0757, "root", 0,
		"/etc/sudoers.d/x");
	assert_text(&a, "ERROR: target user \"t1\" can write \"/etc/sudoers.d\", a directory "
			"above \"/etc/sudoers.d/x\" (it can rename that away and put its own in "
			"place), which root runs or trusts: sudo's rules: whoever writes them "
			"chooses who runs what as root.\n"
			"It has mode 0757, owner \"root\", group \"root\".\n"
			"Fix: chmod go-w /etc/sudoers.d. Then restart ruas.\n");
	a = hit("/home/sup/.bashrc", 'o', AREL_SELF, "supervisor-dot", 0644, "t1", 0,
		"/home/sup/.bashrc");
	char *t = text_of(msg_anchor("t1", "sup", &a));
	assert_non_null(strstr(t, ", which the supervisor \"sup\" runs or trusts: "));
	assert_non_null(strstr(t, "\nFix: chown sup /home/sup/.bashrc. Then restart ruas.\n"));
	free(t);
	a = hit("/run/docker.sock", 'w', AREL_SELF, "docker", 0660, "docker", 0,
		"/run/docker.sock");
	t = text_of(msg_anchor("t1", "sup", &a));
	assert_non_null(strstr(t, "ERROR: target user \"t1\" can connect to \"/run/docker.sock\""));
	assert_non_null(strstr(t, "(gpasswd -d t1 docker)"));
	assert_non_null(strstr(t, " Note: membership in the group that owns it is root by design."));
	free(t);
	a = hit("/dev/sda", 'r', AREL_SELF, "disk", 0640, "disk", 0, "/dev/sda");
	t = text_of(msg_anchor("t1", "sup", &a));
	assert_non_null(strstr(t, "can read \"/dev/sda\""));
	assert_non_null(strstr(t, "or chmod g-rw /dev/sda."));
	free(t);
	/* Hostile bytes from the target's side stay on one line, quoted. */
	a = hit("/etc/cron.d/x\n\x1b[2Jy'", 'w', AREL_INSIDE, "cron", 0666, "g\nroup", 0,
		"/etc/cron.d");
	t = text_of(msg_anchor("t1", "sup", &a));
	assert_non_null(strstr(t, "\"/etc/cron.d/x\\n\\x1b[2Jy'\", inside \"/etc/cron.d\""));
	assert_null(strchr(t, '\x1b'));
	assert_non_null(strstr(t, "group \"g\\nroup\""));
	assert_non_null(strstr(t, "Fix: chmod go-w $'/etc/cron.d/x\\n\\x1b[2Jy\\''"));
	free(t);
	/* An id this version does not know is still fatal, and says so. */
	a = hit("/x", 'w', AREL_SELF, "future", 0666, "root", 0, "/x");
	t = text_of(msg_anchor("t1", "sup", &a));
	assert_non_null(strstr(t, "an entry this version of ruas does not know"));
	free(t);
	/* A directory of a tree the library could not look into: not judged, fatal. */
	a = hit("/usr/local/bin/mnt", 'u', AREL_INSIDE, "root-path", 0755, "root", 0,
		"its file system decides who may write it by more than the mode bits and "
		"ACLs (a network or FUSE file system)");
	t = text_of(msg_anchor("t1", "sup", &a));
	assert_string_equal(t, "ERROR: \"/usr/local/bin/mnt\" was not judged for target user "
			       "\"t1\": its file system decides who may write it by more than "
			       "the mode bits and ACLs (a network or FUSE file system), and root "
			       "runs or trusts what it holds: a directory in root's PATH or sudo's "
			       "secure_path: a program put there runs as root when root types its "
			       "name.\nFix: look at it by hand and make it readable to the "
			       "supervisor (or run ruas check as root); keep what root runs on a "
			       "local file system. What is not judged is not passed. Then restart "
			       "ruas.\n");
	free(t);
	t = text_of(msg_anchors_more("t1", 5));
	assert_string_equal(t, "ERROR: target user \"t1\" can write 5 more paths that root or "
			       "the supervisor runs or trusts, beyond the 64 listed.\n"
			       "Fix those, then run ruas check again to see the rest.\n");
	free(t);
}

/*
 * A tree the library judges itself (the payload's judged_trees, to at
 * least the tree's depth): the helper judges the tree's own path and the
 * directories above it, but walks nothing in it. Named at a depth short of
 * the table's, or by another path, it is walked as before.
 */
static void test_probe_judged_trees(void **state)
{
	struct fix *f = *state;
	if (!f->as_root) {
		print_message("SKIP: needs root to make root-owned fixtures\n");
		skip();
	}
	mkd(f, "tree", 0757);
	mk(f, "tree/b", 0666);
	char *tree = at(f, "tree");
	char real[PATH_MAX];
	assert_non_null(realpath(tree, real));
	struct anchor_item items[] = {{tree, &TREE_DEF}};
	char full[PATH_MAX + 8], shallow[PATH_MAX + 8], other[PATH_MAX + 16];
	snprintf(full, sizeof full, "1 %s", real);
	snprintf(shallow, sizeof shallow, "0 %s", real);
	snprintf(other, sizeof other, "1 %s-other", real);
	char *judged[] = {other, full, NULL};
	char *got = probe_judged(f, items, 1, "nobody", judged, 2);
	assert_lines(got, "w self cron R/tree -> R/tree\n"
			  "failed 1\n");
	free(got);
	char *short_[] = {shallow, other, NULL};
	got = probe_judged(f, items, 1, "nobody", short_, 2);
	assert_lines(got, "w self cron R/tree -> R/tree\n"
			  "w inside cron R/tree/b -> R/tree\n"
			  "failed 2\n");
	free(got);
	free(tree);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_well_formed),
		cmocka_unit_test(test_docs_list_every_entry),
		cmocka_unit_test_setup_teardown(test_probe_verdicts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe_missing_but_creatable, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_probe_owned_and_system, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe_symlink_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe_tree_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe_judged_trees, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe_sticky_config_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe_table_clean_here, setup, teardown),
		cmocka_unit_test(test_secure_path),
		cmocka_unit_test(test_records_well_formed),
		cmocka_unit_test(test_report_names),
		cmocka_unit_test(test_records_malformed),
		cmocka_unit_test(test_records_cap),
		cmocka_unit_test(test_texts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
