/*
 * test_anchors.c - trust anchors: the table (src/common/anchors_table.c) and its
 * documentation, the probe that judges them as the target user
 * (src/helper/exec/anchor_probe.h), the wire records (src/common/proto/wire.h) and the findings'
 * texts (src/lib/check/anchors_report.h).
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

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
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
#include "buf.h"
#include "fixture.h"
#include "payload.h"
#include "wire.h"

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
static char *probe_as_target(const struct fix *f, const struct anchor_item *items, size_t n,
			     const char *self)
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
		size_t failed = anchors_probe(items, n, self, collect, &c);
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
	char *p = at(f, "etc/ld.so.preload"), *q = at(f, "etc/nodir/x");
	char *r = at(f, "st/ld.so.preload");
	struct anchor_item items[] = {{p, &FILE_DEF}, {q, &FILE_DEF}, {r, &FILE_DEF}};
	char *got = probe_as_target(f, items, 3, NULL);
	assert_lines(got, "w parent users R/etc -> R/etc/ld.so.preload\n"
			  "w parent users R/st -> R/st/ld.so.preload\nfailed 2\n");
	free(got);
	free(p);
	free(q);
	free(r);
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

/* ------------------------------------------------------------- the wire */

static void hex(struct buf *b, const char *s)
{
	hex_encode(b, s, strlen(s));
}

/* One `anchor` record with these fields; NULL fields take a valid default. */
static void anchor_line(struct buf *b, const char *path, const char *how, const char *rel,
			const char *id, const char *mode, const char *acl)
{
	buf_adds(b, "anchor ");
	hex(b, path ? path : "/etc/passwd");
	buf_printf(b, " %s %s %s %s ", how ? how : "w", rel ? rel : "self", id ? id : "users",
		   mode ? mode : "666");
	hex(b, "root");
	buf_addc(b, ' ');
	hex(b, "root");
	buf_printf(b, " %s ", acl ? acl : "0");
	hex(b, path ? path : "/etc/passwd");
	buf_addc(b, '\n');
}

#define NONCE "00112233445566778899aabbccddeeff"

static int parse(const char *body, struct helper_report *r)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "%s %s\nesc 1 1  0\nesctty 1 1  0\ngids 100\n%s%s %s\n", WIRE_BEGIN, NONCE, body, WIRE_END, NONCE);
	int rc = helper_report_parse(b.data, b.len, NONCE, 0, r);
	buf_free(&b);
	return rc;
}

static void assert_parse(const char *body, int want)
{
	struct helper_report r;
	int rc = parse(body, &r);
	if (rc != want)
		fail_msg("parse gave %d, expected %d, for:\n%s", rc, want, body);
	helper_report_free(&r);
}

static void test_wire_well_formed(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	anchor_line(&b, "/usr/local", "o", "parent", "root-path", "2775", "1");
	buf_adds(&b, "anchors 1\n");
	struct helper_report r;
	assert_int_equal(parse(b.data, &r), 0);
	assert_int_equal(r.nanchors, 1);
	assert_true(r.anchors_seen);
	assert_int_equal(r.anchors_total, 1);
	assert_string_equal(r.anchors[0].path, "/usr/local");
	assert_int_equal(r.anchors[0].how, 'o');
	assert_int_equal(r.anchors[0].rel, AREL_PARENT);
	assert_string_equal(r.anchors[0].id, "root-path");
	assert_int_equal(r.anchors[0].mode, 02775);
	assert_string_equal(r.anchors[0].owner, "root");
	assert_int_equal(r.anchors[0].acl, 1);
	helper_report_free(&r);
	buf_free(&b);

	assert_parse("anchors 0\n", 0);
}

static void test_wire_malformed(void **state)
{
	(void)state;
	struct {
		const char *path, *how, *rel, *id, *mode, *acl;
	} bad[] = {
		{NULL, "x", NULL, NULL, NULL, NULL},	 {NULL, "wo", NULL, NULL, NULL, NULL},
		{NULL, NULL, "near", NULL, NULL, NULL},	 {NULL, NULL, NULL, "Users", NULL, NULL},
		{NULL, NULL, NULL, "a b", NULL, NULL},	 {NULL, NULL, NULL, NULL, "9", NULL},
		{NULL, NULL, NULL, NULL, "17777", NULL}, {NULL, NULL, NULL, NULL, NULL, "2"},
		{"relative", NULL, NULL, NULL, NULL, NULL},
		{NULL, NULL, NULL, "abcdefghijabcdefghijabcdefghijabc", NULL, NULL},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct buf b = BUF_INIT;
		anchor_line(&b, bad[i].path, bad[i].how, bad[i].rel, bad[i].id, bad[i].mode,
			    bad[i].acl);
		buf_adds(&b, "anchors 1\n");
		assert_parse(b.data, -1);
		buf_free(&b);
	}
	/* No summary: an absent check must not pass. */
	assert_parse("", -1);
	struct buf b = BUF_INIT;
	anchor_line(&b, NULL, NULL, NULL, NULL, NULL, NULL);
	assert_parse(b.data, -1);
	/* A count below the records, or above them without the cap reached. */
	struct buf c = BUF_INIT;
	buf_printf(&c, "%sanchors 0\n", b.data);
	assert_parse(c.data, -1);
	buf_free(&c);
	c = (struct buf)BUF_INIT;
	buf_printf(&c, "%sanchors 2\n", b.data);
	assert_parse(c.data, -1);
	buf_free(&c);
	/* A record after the summary, and a second summary. */
	c = (struct buf)BUF_INIT;
	buf_printf(&c, "anchors 0\n%s", b.data);
	assert_parse(c.data, -1);
	buf_free(&c);
	assert_parse("anchors 0\nanchors 0\n", -1);
	assert_parse("anchors -1\n", -1);
	assert_parse("anchors x\n", -1);
	/* Bad hex in the path. */
	c = (struct buf)BUF_INIT;
	buf_adds(&c, "anchor 2G w self users 666 726f6f74 726f6f74 0 2f\nanchors 1\n");
	assert_parse(c.data, -1);
	buf_free(&c);
	buf_free(&b);
}

static void test_wire_cap(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	for (unsigned int i = 0; i < ANCHOR_REPORT_CAP; i++)
		anchor_line(&b, NULL, NULL, NULL, NULL, NULL, NULL);
	struct buf c = BUF_INIT;
	buf_printf(&c, "%sanchors 1000\n", b.data);
	struct helper_report r;
	assert_int_equal(parse(c.data, &r), 0);
	assert_int_equal(r.nanchors, ANCHOR_REPORT_CAP);
	assert_int_equal(r.anchors_total, 1000);
	helper_report_free(&r);
	buf_free(&c);
	/* One past the cap is refused. */
	anchor_line(&b, NULL, NULL, NULL, NULL, NULL, NULL);
	c = (struct buf)BUF_INIT;
	buf_printf(&c, "%sanchors 1000\n", b.data);
	assert_parse(c.data, -1);
	buf_free(&c);
	buf_free(&b);
}

/* ------------------------------------------------------------- the texts */

static struct anchor_hit hit(const char *path, char how, int rel, const char *id,
			     unsigned int mode, const char *group, int acl, const char *anchor)
{
	struct anchor_hit a = {(char *)path, how, rel, "", mode, (char *)"root",
			       (char *)group, acl, (char *)anchor};
	snprintf(a.id, sizeof a.id, "%s", id);
	return a;
}

static void assert_text(const struct anchor_hit *a, const char *want)
{
	char *t = msg_anchor("t1", "sup", a);
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
	char *t = msg_anchor("t1", "sup", &a);
	assert_non_null(strstr(t, ", which the supervisor \"sup\" runs or trusts: "));
	assert_non_null(strstr(t, "\nFix: chown sup /home/sup/.bashrc. Then restart ruas.\n"));
	free(t);
	a = hit("/run/docker.sock", 'w', AREL_SELF, "docker", 0660, "docker", 0,
		"/run/docker.sock");
	t = msg_anchor("t1", "sup", &a);
	assert_non_null(strstr(t, "ERROR: target user \"t1\" can connect to \"/run/docker.sock\""));
	assert_non_null(strstr(t, "(gpasswd -d t1 docker)"));
	assert_non_null(strstr(t, " Note: membership in the group that owns it is root by design."));
	free(t);
	a = hit("/dev/sda", 'r', AREL_SELF, "disk", 0640, "disk", 0, "/dev/sda");
	t = msg_anchor("t1", "sup", &a);
	assert_non_null(strstr(t, "can read \"/dev/sda\""));
	assert_non_null(strstr(t, "or chmod g-rw /dev/sda."));
	free(t);
	/* Hostile bytes from the target's side stay on one line, quoted. */
	a = hit("/etc/cron.d/x\n\x1b[2Jy'", 'w', AREL_INSIDE, "cron", 0666, "g\nroup", 0,
		"/etc/cron.d");
	t = msg_anchor("t1", "sup", &a);
	assert_non_null(strstr(t, "\"/etc/cron.d/x\\n\\x1b[2Jy'\", inside \"/etc/cron.d\""));
	assert_null(strchr(t, '\x1b'));
	assert_non_null(strstr(t, "group \"g\\nroup\""));
	assert_non_null(strstr(t, "Fix: chmod go-w $'/etc/cron.d/x\\n\\x1b[2Jy\\''"));
	free(t);
	/* An id this version does not know is still fatal, and says so. */
	a = hit("/x", 'w', AREL_SELF, "future", 0666, "root", 0, "/x");
	t = msg_anchor("t1", "sup", &a);
	assert_non_null(strstr(t, "an entry this version of ruas does not know"));
	free(t);
	t = msg_anchors_more("t1", 5);
	assert_string_equal(t, "ERROR: target user \"t1\" can write 5 more paths that root or "
			       "the supervisor runs or trusts, beyond the 64 listed.\n"
			       "Fix those, then run ruas check again to see the rest.\n");
	free(t);
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
		cmocka_unit_test_setup_teardown(test_probe_sticky_config_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe_table_clean_here, setup, teardown),
		cmocka_unit_test(test_secure_path),
		cmocka_unit_test(test_wire_well_formed),
		cmocka_unit_test(test_wire_malformed),
		cmocka_unit_test(test_wire_cap),
		cmocka_unit_test(test_texts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
