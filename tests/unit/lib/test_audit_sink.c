/* SPDX-License-Identifier: ISC */
/*
 * test_audit_sink.c - where audit records go (src/lib/audit/sink.h,
 * log_file.h) and what a spawn, a preflight and an audit leave there: the
 * sinks of the options, the audit_log's refusals, the run id the command
 * sees, and a spawn that the log cannot record being refused. Spawns here
 * are of a project without run_as_user, which needs no root; the records of
 * real targets are tests/integration/audit.sh's.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "audit/log_file.h"
#include "audit/sink.h"
#include "buf.h"
#include "ruas.h"
#include "../support/private_state.h"

/* ------------------------------------------------------------ helpers */

struct seen {
	char *event[8];
	char *run[8];
	char *line[8];
	char *json[8];
	size_t n;
};

static void collect(const ruas_audit_record *r, void *payload)
{
	struct seen *s = payload;
	assert_int_equal(r->version, RUAS_AUDIT_RECORD_VERSION);
	assert_true(s->n < 8);
	s->event[s->n] = strdup(r->event);
	s->run[s->n] = r->run ? strdup(r->run) : NULL;
	s->line[s->n] = strdup(r->line);
	s->json[s->n] = strdup(r->json);
	s->n++;
}

/* A sink that collects into *seen. */
static ruas_audit_sink collecting(struct seen *seen)
{
	ruas_audit_sink sink = RUAS_AUDIT_SINK_INIT;
	sink.to = RUAS_AUDIT_TO_CALLBACK;
	sink.callback = collect;
	sink.payload = seen;
	return sink;
}

static void seen_free(struct seen *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->event[i]);
		free(s->run[i]);
		free(s->line[i]);
		free(s->json[i]);
	}
	memset(s, 0, sizeof *s);
}

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/ruas-audit-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	return chmod(dir, 0755);
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "%s", dir);
	/* Only files the tests made, one level deep. */
	const char *names[] = {"audit.jsonl", "link", "out", "sub/own/audit.jsonl", "sub/own",
			       "sub/audit.jsonl", "sub", "fifo",
			       "shared", "tgt/logs/audit.jsonl", "tgt/logs", "tgt", NULL};
	for (const char **n = names; *n; n++) {
		char p[160];
		snprintf(p, sizeof p, "%s/%s", dir, *n);
		if (unlink(p) < 0 && errno == EISDIR)
			(void)rmdir(p);
		(void)rmdir(p);
	}
	return rmdir(cmd);
}

static char *path_in(const char *name)
{
	static char p[4][160];
	static int i;
	i = (i + 1) % 4;
	snprintf(p[i], sizeof p[i], "%s/%s", dir, name);
	return p[i];
}

/* A configuration of one project without run_as_user, in dir, with extra top-level text. */
static ruas_config *legacy_config(const char *extra, const char *const *command)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "%s\nprojects = ( { name = \"legacy\"; work_dir = \"%s\"; command = [", extra,
		   dir);
	for (size_t i = 0; command[i]; i++)
		buf_printf(&b, "%s\"%s\"", i ? ", " : "", command[i]);
	buf_adds(&b, "]; } );\n");
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	if (ruas_config_load_buffer(&cfg, b.data, b.len, "audit.conf", NULL, &err) != 0)
		fail_msg("config refused: %s\n%s", ruas_error_message(err), b.data);
	buf_free(&b);
	return cfg;
}

static json_object *parse(const char *json)
{
	json_object *o = json_tokener_parse(json);
	if (!o)
		fail_msg("not JSON: %s", json);
	return o;
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no \"%s\" in %s", key, json_object_to_json_string(o));
	return json_object_is_type(v, json_type_null) ? NULL : json_object_get_string(v);
}

static long long jint(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		fail_msg("no number \"%s\" in %s", key, json_object_to_json_string(o));
	return json_object_get_int64(v);
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	return buf_detach(&b);
}

static int is_run_id(const char *s)
{
	if (!s || strlen(s) != 32)
		return 0;
	return strspn(s, "0123456789abcdef") == 32;
}

/* -------------------------------------------------------------- sinks */

static void test_sink_refusals(void **state)
{
	(void)state;
	struct audit_dest d;
	ruas_error *err = NULL;
	ruas_audit_sink s = RUAS_AUDIT_SINK_INIT;
	s.version = 2;
	assert_int_equal(audit_dest_init(&d, &s, LOG_AUTHPRIV, "fn", &err), RUAS_ERR_INVALID);
	assert_non_null(strstr(ruas_error_message(err), "audit sink version 2"));
	ruas_error_free(err);
	s = (ruas_audit_sink)RUAS_AUDIT_SINK_INIT;
	s.to = 4;
	assert_int_equal(audit_dest_init(&d, &s, LOG_AUTHPRIV, "fn", &err), RUAS_ERR_INVALID);
	ruas_error_free(err);
	s.to = RUAS_AUDIT_TO_CALLBACK;
	assert_int_equal(audit_dest_init(&d, &s, LOG_AUTHPRIV, "fn", &err), RUAS_ERR_INVALID);
	assert_non_null(strstr(ruas_error_message(err), "without a callback"));
	ruas_error_free(err);
	s.to = RUAS_AUDIT_TO_FD;
	s.fd = 999;
	assert_int_equal(audit_dest_init(&d, &s, LOG_AUTHPRIV, "fn", &err), RUAS_ERR_INVALID);
	assert_non_null(strstr(ruas_error_message(err), "999 is not an open descriptor"));
	ruas_error_free(err);
	/* NULL is syslog, at the facility given. */
	assert_int_equal(audit_dest_init(&d, NULL, LOG_LOCAL3, "fn", &err), 0);
	assert_int_equal(d.to, RUAS_AUDIT_TO_SYSLOG);
	assert_int_equal(d.facility, LOG_LOCAL3);
	assert_int_equal(d.log_fd, -1);
}

static const char *const hostile_argv[] = {"a\nend run=forged exit=0", "q\"x", "k=v", NULL};

static struct audit_record hostile_record(struct audit_field f[3])
{
	f[0] = (struct audit_field){.key = "run", .type = AUDIT_STR, .s = "r1"};
	f[1] = (struct audit_field){.key = "argv", .type = AUDIT_ARGV, .v = hostile_argv};
	f[2] = (struct audit_field){.key = "exit", .type = AUDIT_INT, .n = 7};
	return (struct audit_record){AUDIT_END, f, 3};
}

/* The fd sink gets the JSON line, the callback the line and the JSON without newlines. */
static void test_fd_and_callback(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	ruas_audit_sink s = RUAS_AUDIT_SINK_INIT;
	s.to = RUAS_AUDIT_TO_FD;
	s.fd = p[1];
	struct audit_dest d;
	assert_int_equal(audit_dest_init(&d, &s, LOG_AUTHPRIV, "fn", NULL), 0);
	struct audit_field f[3];
	struct audit_record r = hostile_record(f);
	assert_int_equal(audit_emit(&d, &r, "r1"), 0);
	char got[1024];
	ssize_t n = read(p[0], got, sizeof got - 1);
	assert_true(n > 0);
	got[n] = '\0';
	assert_int_equal(got[n - 1], '\n');
	assert_ptr_equal(strchr(got, '\n'), got + n - 1); /* one line */
	json_object *o = parse(got);
	assert_string_equal(jstr(o, "event"), "end");
	json_object *argv;
	assert_true(json_object_object_get_ex(o, "argv", &argv));
	assert_string_equal(json_object_get_string(json_object_array_get_idx(argv, 0)),
			    hostile_argv[0]);
	assert_int_equal(jint(o, "exit"), 7);
	json_object_put(o);
	close(p[0]);
	close(p[1]);

	struct seen seen = {0};
	s.to = RUAS_AUDIT_TO_CALLBACK;
	s.callback = collect;
	s.payload = &seen;
	assert_int_equal(audit_dest_init(&d, &s, LOG_AUTHPRIV, "fn", NULL), 0);
	assert_int_equal(audit_emit(&d, &r, "r1"), 0);
	assert_int_equal(seen.n, 1);
	assert_string_equal(seen.event[0], "end");
	assert_string_equal(seen.run[0], "r1");
	assert_null(strchr(seen.line[0], '\n'));
	assert_null(strchr(seen.json[0], '\n'));
	assert_string_equal(seen.line[0],
			    "end run=r1 argv=[\"a\\x0aend run=forged exit=0\",\"q\\\"x\",\"k=v\"] "
			    "exit=7");
	json_object_put(parse(seen.json[0]));
	seen_free(&seen);
}

/* ----------------------------------------------------------- the log */

static void test_log_created_0600_and_appended(void **state)
{
	(void)state;
	struct buf extra = BUF_INIT;
	buf_printf(&extra, "audit_log = \"%s\";", path_in("audit.jsonl"));
	const char *const cmd[] = {"/bin/true", NULL};
	ruas_config *cfg = legacy_config(extra.data, cmd);
	char why[256];
	int fd = audit_log_open(cfg, 1, why, sizeof why);
	if (fd < 0)
		fail_msg("refused: %s", why);
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	assert_true(fcntl(fd, F_GETFL) & O_APPEND);
	close(fd);
	ruas_config_free(cfg);
	buf_free(&extra);
}

static void assert_log_refused(const char *name, const char *reason)
{
	struct buf extra = BUF_INIT;
	buf_printf(&extra, "audit_log = \"%s\";", path_in(name));
	const char *const cmd[] = {"/bin/true", NULL};
	ruas_config *cfg = legacy_config(extra.data, cmd);
	char why[256];
	int fd = audit_log_open(cfg, 1, why, sizeof why);
	if (fd >= 0)
		fail_msg("%s: accepted, expected \"%s\"", name, reason);
	if (!strstr(why, reason))
		fail_msg("%s: refused for \"%s\", expected \"%s\"", name, why, reason);
	ruas_config_free(cfg);
	buf_free(&extra);
}

/* Its directories are judged at load already: refused there, with the reason. */
static void assert_log_refused_at_load(const char *name, const char *reason)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "audit_log = \"%s\";\nprojects = ( { name = \"legacy\"; work_dir = \"%s\"; "
		       "command = [\"/bin/true\"]; } );\n",
		   path_in(name), dir);
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	if (ruas_config_load_buffer(&cfg, b.data, b.len, "audit.conf", NULL, &err) == 0)
		fail_msg("%s: accepted at load, expected \"%s\"", name, reason);
	if (!strstr(ruas_error_message(err), reason) ||
	    !strstr(ruas_error_message(err), "audit.conf:1: audit_log \""))
		fail_msg("%s: refused for \"%s\", expected \"%s\"", name, ruas_error_message(err),
			 reason);
	ruas_error_free(err);
	buf_free(&b);
}

static void test_log_refusals(void **state)
{
	(void)state;
	/* A symlink, even to a good file, is refused: the operator names the file itself. */
	int fd = open(path_in("audit.jsonl"), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(symlink(path_in("audit.jsonl"), path_in("link")), 0);
	assert_log_refused("link", "symlink");

	assert_int_equal(chmod(path_in("audit.jsonl"), 0620), 0);
	assert_log_refused("audit.jsonl", "its group or others may read or write it");
	assert_int_equal(chmod(path_in("audit.jsonl"), 0602), 0);
	assert_log_refused("audit.jsonl", "its group or others may read or write it");
	assert_int_equal(chmod(path_in("audit.jsonl"), 0604), 0);
	assert_log_refused("audit.jsonl", "its group or others may read or write it");
	assert_int_equal(chmod(path_in("audit.jsonl"), 0640), 0);
	assert_log_refused("audit.jsonl", "its group or others may read or write it");
	assert_int_equal(chmod(path_in("audit.jsonl"), 0600), 0);

	assert_int_equal(mkfifo(path_in("fifo"), 0600), 0);
	assert_log_refused("fifo", "not a regular file");

	/*
	 * A directory that others may write to holds it: they could replace the
	 * file, or (sticky or not, issue 25) create its name first. Refused at
	 * load, naming the directory and the file's name.
	 */
	assert_int_equal(mkdir(path_in("sub"), 0777), 0);
	assert_int_equal(chmod(path_in("sub"), 0777), 0);
	assert_log_refused_at_load("sub/audit.jsonl", "/sub\" that holds it is writable by its group or by others");
	assert_int_equal(chmod(path_in("sub"), 01777), 0);
	assert_log_refused_at_load("sub/audit.jsonl", "(sticky or not), who could create \"audit.jsonl\" first");
	assert_int_equal(chmod(path_in("sub"), 01775), 0);
	assert_log_refused_at_load("sub/audit.jsonl", "/sub\" that holds it is writable by its group");

	/* Above it, a sticky directory is fine: others cannot replace what is ours in it. */
	assert_int_equal(chmod(path_in("sub"), 01777), 0);
	assert_int_equal(mkdir(path_in("sub/own"), 0755), 0);
	struct buf extra = BUF_INIT;
	buf_printf(&extra, "audit_log = \"%s\";", path_in("sub/own/audit.jsonl"));
	const char *const cmd[] = {"/bin/true", NULL};
	ruas_config *cfg = legacy_config(extra.data, cmd);
	char why[256];
	fd = audit_log_open(cfg, 1, why, sizeof why);
	if (fd < 0)
		fail_msg("a log beneath a sticky directory refused: %s", why);
	close(fd);
	/* ... and a holding directory opened up after the load is refused by the open itself. */
	assert_int_equal(chmod(path_in("sub/own"), 01777), 0);
	assert_int_equal(audit_log_open(cfg, 1, why, sizeof why), -1);
	assert_non_null(strstr(why, "(sticky or not)"));
	ruas_config_free(cfg);
	buf_free(&extra);
}

/* As root: a log that a project's run_as_user owns is refused (it could rewrite it). */
static void test_log_owned_by_target_refused(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip(); /* chown needs root; CI runs this as root */
	struct passwd *pw = getpwnam("nobody");
	assert_non_null(pw);
	int fd = open(path_in("shared"), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fchown(fd, pw->pw_uid, 0), 0);
	close(fd);
	struct buf b = BUF_INIT;
	buf_printf(&b, "audit_log = \"%s\";\nprojects = ( { name = \"t\"; work_dir = \"%s\"; "
		       "command = [\"/bin/true\"]; run_as_user = \"nobody\"; } );\n",
		   path_in("shared"), dir);
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	if (ruas_config_load_buffer(&cfg, b.data, b.len, "audit.conf", NULL, &err) != 0)
		fail_msg("config refused: %s", ruas_error_message(err));
	char why[256];
	assert_int_equal(audit_log_open(cfg, 1, why, sizeof why), -1);
	assert_non_null(strstr(why, "it belongs to another user"));
	ruas_config_free(cfg);
	buf_free(&b);
}


/*
 * As root: a log owned by someone who is neither the supervisor nor root
 * (another local user, who made it 0600 before the first run, in a sticky
 * directory) is refused: that user could read every record (the agents'
 * arguments) and rewrite them.
 */
static void test_log_owned_by_another_user_refused(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip(); /* chown needs root */
	(void)unlink(path_in("shared"));
	int fd = open(path_in("shared"), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fchown(fd, 54321, 54321), 0); /* no project's run_as_user */
	close(fd);
	struct buf extra = BUF_INIT;
	buf_printf(&extra, "audit_log = \"%s\";", path_in("shared"));
	const char *const cmd[] = {"/bin/true", NULL};
	ruas_config *cfg = legacy_config(extra.data, cmd);
	char why[256];
	fd = audit_log_open(cfg, 1, why, sizeof why);
	if (fd >= 0)
		fail_msg("a log owned by uid 54321 was accepted for a supervisor of uid %d",
			 (int)geteuid());
	ruas_config_free(cfg);
	buf_free(&extra);
}

/*
 * As root: the log's directory is root's and 0700, but the directory above
 * it belongs to a target, who can rename it away and put a symlink (or a
 * directory of its choosing) in its place between the checks, or at any
 * time before the next run. Every directory on the path counts, not only
 * the last one.
 */
static void test_log_ancestor_owned_by_target_refused(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip(); /* chown needs root */
	struct passwd *pw = getpwnam("nobody");
	assert_non_null(pw);
	assert_int_equal(mkdir(path_in("tgt"), 0755), 0);
	assert_int_equal(chown(path_in("tgt"), pw->pw_uid, pw->pw_gid), 0);
	assert_int_equal(mkdir(path_in("tgt/logs"), 0700), 0);
	struct buf b = BUF_INIT;
	buf_printf(&b, "audit_log = \"%s\";\nprojects = ( { name = \"t\"; work_dir = \"%s\"; "
		       "command = [\"/bin/true\"]; run_as_user = \"nobody\"; } );\n",
		   path_in("tgt/logs/audit.jsonl"), dir);
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	if (ruas_config_load_buffer(&cfg, b.data, b.len, "audit.conf", NULL, &err) != 0)
		fail_msg("config refused: %s", ruas_error_message(err));
	char why[256];
	int fd = audit_log_open(cfg, 1, why, sizeof why);
	if (fd >= 0)
		fail_msg("accepted a log beneath a directory that the target nobody owns");
	ruas_config_free(cfg);
	buf_free(&b);
}

/* ------------------------------------------------------------ spawns */

static ruas_child *spawn_with(ruas_config *cfg, const char *const *args, struct seen *seen,
			      int *r, ruas_error **err)
{
	ruas_audit_sink sink = collecting(seen);
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.pty = RUAS_PTY_NONE;
	o.audit = &sink; /* copied: it may go out of scope after the call */
	ruas_child *c = NULL;
	*r = ruas_spawn(&c, cfg, "legacy", args, &o, err);
	return c;
}

/*
 * Records that no sink takes (here a sink descriptor that refuses every
 * write) are counted on the configuration, never lost in silence: the start
 * and the end, the end counted even after the configuration was freed (the
 * run keeps the count; valgrind sees no use after free).
 */
static void test_undelivered_counted(void **state)
{
	(void)state;
	const char *const cmd[] = {"/bin/sh", "-c", "exit 0", NULL};
	ruas_config *cfg = legacy_config("", cmd);
	int ro = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(ro >= 0);
	ruas_audit_sink sink = RUAS_AUDIT_SINK_INIT;
	sink.to = RUAS_AUDIT_TO_FD;
	sink.fd = ro;
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.pty = RUAS_PTY_NONE;
	o.audit = &sink;
	ruas_child *c = NULL;
	ruas_error *err = NULL;
	assert_int_equal(ruas_config_audit_undelivered(cfg), 0);
	assert_int_equal(ruas_spawn(&c, cfg, "legacy", NULL, &o, &err), 0);
	int code = -1;
	assert_int_equal(ruas_child_wait(c, &code, &err), 0);
	assert_int_equal(code, 0);
	assert_int_equal(ruas_config_audit_undelivered(cfg), 2);
	ruas_child_free(c);
	/* A run that outlives its configuration counts into what it keeps. */
	assert_int_equal(ruas_spawn(&c, cfg, "legacy", NULL, &o, &err), 0);
	ruas_config_free(cfg);
	assert_int_equal(ruas_child_wait(c, &code, &err), 0);
	ruas_child_free(c);
	close(ro);
	assert_int_equal(ruas_config_audit_undelivered(NULL), 0);
}

/*
 * A spawn's start and end: one run id in both records, in the log, from
 * ruas_child_run_id() and in the command's RUAS_RUN_ID; the exit status;
 * hostile arguments as one record each.
 */
static void test_spawn_start_and_end(void **state)
{
	(void)state;
	struct buf extra = BUF_INIT;
	buf_printf(&extra, "audit_log = \"%s\";", path_in("audit.jsonl"));
	const char *const cmd[] = {"/bin/sh", "-c", "printf %s \\\"$RUAS_RUN_ID\\\" > out; exit 3",
				   NULL};
	ruas_config *cfg = legacy_config(extra.data, cmd);
	(void)unlink(path_in("audit.jsonl"));
	(void)unlink(path_in("out"));
	const char *const args[] = {"line\nbreak", "x\" y=\"z", NULL};
	struct seen seen = {0};
	int r;
	ruas_error *err = NULL;
	ruas_child *c = spawn_with(cfg, args, &seen, &r, &err);
	if (r != 0)
		fail_msg("spawn: %s", ruas_error_message(err));
	const char *run = ruas_child_run_id(c);
	assert_true(is_run_id(run));
	int code = -1;
	assert_int_equal(ruas_child_wait(c, &code, NULL), 0);
	assert_int_equal(code, 3);
	char *out = read_all(path_in("out"));
	assert_non_null(out);
	assert_string_equal(out, run);
	free(out);

	assert_int_equal(seen.n, 2);
	assert_string_equal(seen.event[0], "start");
	assert_string_equal(seen.event[1], "end");
	assert_string_equal(seen.run[0], run);
	assert_string_equal(seen.run[1], run);
	json_object *st = parse(seen.json[0]);
	assert_string_equal(jstr(st, "project"), "legacy");
	assert_string_equal(jstr(st, "backend"), "none");
	assert_string_equal(jstr(st, "checks"), "none");
	assert_null(jstr(st, "person"));
	assert_null(jstr(st, "deny"));
	assert_int_equal(jint(st, "argc"), 5);
	json_object *argv;
	assert_true(json_object_object_get_ex(st, "argv", &argv));
	assert_string_equal(json_object_get_string(json_object_array_get_idx(argv, 3)),
			    "line\nbreak");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(argv, 4)),
			    "x\" y=\"z");
	json_object_put(st);
	json_object *end = parse(seen.json[1]);
	assert_int_equal(jint(end, "exit"), 3);
	assert_null(jstr(end, "signal"));
	assert_true(jint(end, "duration_ms") >= 0);
	/* The command's own program ran (posix_spawn said so): its exit status is the agent's. */
	assert_string_equal(jstr(end, "started"), "yes");
	json_object_put(end);
	assert_non_null(strstr(seen.line[1], " exit=3 signal=- "));
	assert_non_null(strstr(seen.line[1], " started=yes"));

	/* The log holds the same two objects, one a line. */
	char *log = read_all(path_in("audit.jsonl"));
	assert_non_null(log);
	char *nl = strchr(log, '\n');
	assert_non_null(nl);
	*nl = '\0';
	assert_string_equal(log, seen.json[0]);
	size_t len = strlen(nl + 1);
	assert_true(len > 0 && nl[len] == '\n');
	nl[len] = '\0';
	assert_string_equal(nl + 1, seen.json[1]);
	free(log);

	/* A second wait makes no second end. */
	assert_int_equal(ruas_child_wait(c, &code, NULL), 0);
	assert_int_equal(seen.n, 2);
	ruas_child_free(c);
	assert_int_equal(seen.n, 2);
	seen_free(&seen);
	ruas_config_free(cfg);
	buf_free(&extra);
}

/* Killed by a signal: exit is null, signal its name; free without a wait still records the end. */
static void test_spawn_signal_and_free(void **state)
{
	(void)state;
	const char *const cmd[] = {"/bin/sh", "-c", "kill -TERM $$", NULL};
	ruas_config *cfg = legacy_config("", cmd);
	struct seen seen = {0};
	int r;
	ruas_error *err = NULL;
	ruas_child *c = spawn_with(cfg, NULL, &seen, &r, &err);
	assert_int_equal(r, 0);
	int code;
	assert_int_equal(ruas_child_wait(c, &code, NULL), 0);
	assert_int_equal(code, 128 + 15);
	ruas_child_free(c);
	assert_int_equal(seen.n, 2);
	json_object *end = parse(seen.json[1]);
	assert_null(jstr(end, "exit"));
	assert_string_equal(jstr(end, "signal"), "SIGTERM");
	assert_string_equal(jstr(end, "started"), "yes");
	json_object_put(end);
	assert_non_null(strstr(seen.line[1], " exit=- signal=SIGTERM "));
	seen_free(&seen);
	ruas_config_free(cfg);

	const char *const sleeper[] = {"/bin/sleep", "30", NULL};
	cfg = legacy_config("", sleeper);
	c = spawn_with(cfg, NULL, &seen, &r, &err);
	assert_int_equal(r, 0);
	ruas_child_free(c); /* still running: killed, reaped, recorded */
	assert_int_equal(seen.n, 2);
	assert_string_equal(seen.event[1], "end");
	end = parse(seen.json[1]);
	assert_string_equal(jstr(end, "signal"), "SIGKILL");
	json_object_put(end);
	seen_free(&seen);
	ruas_config_free(cfg);
}


/*
 * An embedder that ignores SIGCHLD (the kernel reaps its children) or reaps
 * with waitpid(-1) elsewhere: the wait says someone else reaped the pid,
 * but the run still gets its end record (exit unknown), at the latest when
 * the handle is freed. Today it gets none: a start without an end.
 */
static void test_end_recorded_when_reaped_elsewhere(void **state)
{
	(void)state;
	const char *const cmd[] = {"/bin/true", NULL};
	ruas_config *cfg = legacy_config("", cmd);
	struct seen seen = {0};
	int r;
	ruas_error *err = NULL;
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	assert_int_equal(sigaction(SIGCHLD, &ign, &old), 0);
	ruas_child *c = spawn_with(cfg, NULL, &seen, &r, &err);
	assert_int_equal(r, 0);
	int code;
	(void)ruas_child_wait(c, &code, NULL); /* "reaped by someone else" */
	ruas_child_free(c);
	assert_int_equal(sigaction(SIGCHLD, &old, NULL), 0);
	if (seen.n != 2)
		fail_msg("%zu record(s), the first \"%s\": a start without its end", seen.n,
			 seen.n ? seen.line[0] : "");
	assert_string_equal(seen.event[1], "end");
	/* Nothing of the end is known, whether the program started neither. */
	json_object *end = parse(seen.json[1]);
	assert_null(jstr(end, "exit"));
	assert_null(jstr(end, "started"));
	json_object_put(end);
	assert_non_null(strstr(seen.line[1], " started=-"));
	seen_free(&seen);
	ruas_config_free(cfg);
}


/*
 * A check looks and changes nothing: ruas_preflight() (ruas check, which an
 * operator may well run as root) must not create the audit_log. Created by
 * root, 0600, the supervisor's own spawns could then never open it.
 */
static void test_preflight_does_not_create_the_log(void **state)
{
	(void)state;
	(void)unlink(path_in("audit.jsonl"));
	struct buf extra = BUF_INIT;
	buf_printf(&extra, "audit_log = \"%s\";", path_in("audit.jsonl"));
	const char *const cmd[] = {"/bin/true", NULL};
	ruas_config *cfg = legacy_config(extra.data, cmd);
	ruas_audit_sink sink = RUAS_AUDIT_SINK_INIT;
	sink.to = RUAS_AUDIT_TO_NONE;
	ruas_preflight_options po = RUAS_PREFLIGHT_OPTIONS_INIT;
	po.audit = &sink;
	ruas_report *rep = NULL;
	assert_int_equal(ruas_preflight(&rep, cfg, &po, NULL), 0);
	ruas_report_free(rep);
	if (access(path_in("audit.jsonl"), F_OK) == 0)
		fail_msg("ruas_preflight() created %s (as uid %d)", path_in("audit.jsonl"),
			 (int)geteuid());
	ruas_config_free(cfg);
	buf_free(&extra);
}

/*
 * rsyslog's imuxsock cuts a message at 8 KiB by default (maxMessageSize), as
 * Debian ships it: a start record of many arguments (each up to 256 bytes,
 * four times that once non-ASCII bytes are escaped) must not lose the fields
 * after argv there (env, deny, checks, pid).
 */
static void test_start_fields_survive_an_8k_cut(void **state)
{
	(void)state;
	const char *const cmd[] = {"/bin/true", NULL};
	ruas_config *cfg = legacy_config("", cmd);
	static char arg[257];
	memset(arg, 0xff, 256);
	const char *args[41];
	for (size_t i = 0; i < 40; i++)
		args[i] = arg;
	args[40] = NULL;
	struct seen seen = {0};
	int r;
	ruas_child *c = spawn_with(cfg, args, &seen, &r, NULL);
	assert_int_equal(r, 0);
	assert_int_equal(ruas_child_wait(c, NULL, NULL), 0);
	ruas_child_free(c);
	assert_string_equal(seen.event[0], "start");
	const char *checks = strstr(seen.line[0], " checks=");
	assert_non_null(checks);
	/* "<86>Mmm dd hh:mm:ss ruas[PID]: " comes first. */
	if (checks - seen.line[0] > 8192 - 64)
		fail_msg("a %zu-byte start line: its checks field begins at byte %td, past 8 KiB",
			 strlen(seen.line[0]), checks - seen.line[0]);
	seen_free(&seen);
	ruas_config_free(cfg);
}

/* The configuration's name in the audit_log finding forges no line of the report. */
static void test_log_finding_escapes_the_config_name(void **state)
{
	(void)state;
	(void)unlink(path_in("link"));
	assert_int_equal(symlink(path_in("audit.jsonl"), path_in("link")), 0);
	struct buf b = BUF_INIT;
	buf_printf(&b, "audit_log = \"%s\";\nprojects = ( { name = \"legacy\"; work_dir = \"%s\"; "
		       "command = [\"/bin/true\"]; } );\n",
		   path_in("link"), dir);
	ruas_config *cfg = NULL;
	assert_int_equal(ruas_config_load_buffer(&cfg, b.data, b.len, "evil\nERROR: forged", NULL,
						 NULL),
			 0);
	buf_free(&b);
	ruas_audit_sink sink = RUAS_AUDIT_SINK_INIT;
	sink.to = RUAS_AUDIT_TO_NONE;
	ruas_preflight_options po = RUAS_PREFLIGHT_OPTIONS_INIT;
	po.audit = &sink;
	ruas_report *rep = NULL;
	assert_int_equal(ruas_preflight(&rep, cfg, &po, NULL), 0);
	size_t n = ruas_report_item_count(rep, 0);
	assert_true(n >= 1);
	const char *text = ruas_report_item_text(rep, 0, n - 1);
	assert_string_equal(ruas_report_item_check(rep, 0, n - 1), "audit_log");
	if (!strstr(text, "(audit_log in evil") || strstr(text, "\nERROR: forged"))
		fail_msg("the configuration's name is not escaped: %s", text);
	ruas_report_free(rep);
	ruas_config_free(cfg);
}

/* A log that cannot be written stops the spawn before anything runs. */
static void test_spawn_refused_without_log(void **state)
{
	(void)state;
	int fd = open(path_in("audit.jsonl"), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	close(fd);
	(void)unlink(path_in("link"));
	assert_int_equal(symlink(path_in("audit.jsonl"), path_in("link")), 0);
	(void)unlink(path_in("out"));
	struct buf extra = BUF_INIT;
	buf_printf(&extra, "audit_log = \"%s\";", path_in("link"));
	const char *const cmd[] = {"/bin/sh", "-c", "echo ran > out", NULL};
	ruas_config *cfg = legacy_config(extra.data, cmd);
	struct seen seen = {0};
	int r;
	ruas_error *err = NULL;
	ruas_child *c = spawn_with(cfg, NULL, &seen, &r, &err);
	assert_null(c);
	assert_int_equal(r, RUAS_ERR_SYSTEM);
	const char *m = ruas_error_message(err);
	if (!strstr(m, "project \"legacy\": cannot write the audit log") || !strstr(m, "symlink") ||
	    !strstr(m, "nothing was started"))
		fail_msg("message: %s", m);
	ruas_error_free(err);
	assert_int_equal(seen.n, 0);
	struct timespec ts = {0, 100 * 1000000L};
	nanosleep(&ts, NULL);
	assert_int_equal(access(path_in("out"), F_OK), -1);

	/* ruas_preflight says so too, as a fatal "audit_log" finding, and records its check. */
	ruas_audit_sink sink = collecting(&seen);
	ruas_preflight_options po = RUAS_PREFLIGHT_OPTIONS_INIT;
	po.audit = &sink;
	ruas_report *rep = NULL;
	assert_int_equal(ruas_preflight(&rep, cfg, &po, NULL), 0);
	assert_true(ruas_report_has_fatal(rep));
	size_t n = ruas_report_item_count(rep, 0);
	assert_true(n >= 1);
	assert_string_equal(ruas_report_item_check(rep, 0, n - 1), "audit_log");
	assert_non_null(strstr(ruas_report_item_text(rep, 0, n - 1), "symlink"));
	ruas_report_free(rep);
	assert_int_equal(seen.n, 1);
	assert_string_equal(seen.event[0], "check");
	assert_null(seen.run[0]);
	json_object *o = parse(seen.json[0]);
	assert_string_equal(jstr(o, "result"), "fatal");
	assert_int_equal(jint(o, "fatal"), 1);
	json_object *ids;
	assert_true(json_object_object_get_ex(o, "fatal_checks", &ids));
	assert_string_equal(json_object_get_string(json_object_array_get_idx(ids, 0)), "audit_log");
	json_object_put(o);
	seen_free(&seen);
	ruas_config_free(cfg);
	buf_free(&extra);
}

/* A preflight's record, and the verdict it leaves for the project's start records. */
static void test_preflight_record_and_checks(void **state)
{
	(void)state;
	const char *const cmd[] = {"/bin/true", NULL};
	ruas_config *cfg = legacy_config("", cmd);
	struct seen seen = {0};
	ruas_audit_sink sink = collecting(&seen);
	ruas_preflight_options po = RUAS_PREFLIGHT_OPTIONS_INIT;
	po.audit = &sink;
	ruas_report *rep = NULL;
	assert_int_equal(ruas_preflight(&rep, cfg, &po, NULL), 0);
	assert_false(ruas_report_has_fatal(rep));
	ruas_report_free(rep);
	assert_int_equal(seen.n, 1);
	struct passwd *me = getpwuid(geteuid());
	assert_non_null(me);
	char want[256];
	snprintf(want, sizeof want,
		 "check config=audit.conf supervisor=%s projects=1 fatal=0 warnings=0 "
		 "fatal_checks=[] result=ok",
		 me->pw_name);
	assert_string_equal(seen.line[0], want);
	seen_free(&seen);
	int r;
	ruas_child *c = spawn_with(cfg, NULL, &seen, &r, NULL);
	assert_int_equal(r, 0);
	assert_int_equal(ruas_child_wait(c, NULL, NULL), 0);
	ruas_child_free(c);
	json_object *st = parse(seen.json[0]);
	assert_string_equal(jstr(st, "checks"), "ok");
	json_object_put(st);
	seen_free(&seen);

	/* A version 1 options struct has no sink: accepted, syslog. A sink of a bad version is not. */
	ruas_preflight_options v1 = {.version = 1, .max_parallel = 0, .audit = NULL};
	assert_int_equal(ruas_preflight(&rep, cfg, &v1, NULL), 0);
	ruas_report_free(rep);
	/* Read through po.audit, which points at it. */
	// cppcheck-suppress unreadVariable
	sink.version = 9;
	ruas_error *err = NULL;
	assert_int_equal(ruas_preflight(&rep, cfg, &po, &err), RUAS_ERR_INVALID);
	assert_non_null(strstr(ruas_error_message(err), "ruas_preflight: audit sink version 9"));
	ruas_error_free(err);
	assert_int_equal(ruas_audit(&rep, cfg, &po, &err), RUAS_ERR_INVALID);
	ruas_error_free(err);
	ruas_config_free(cfg);
}

/*
 * A full file system (issue 26): a record that does not fit whole is undone,
 * so that the file holds only whole records, and the next one, once there
 * is room, starts on a line of its own. The full disk is RLIMIT_FSIZE (a
 * write past it is cut short, as on a full disk), in a child process.
 */
static void test_log_short_write_undone(void **state)
{
	(void)state;
	char tmp[] = "/tmp/ruas-audit-full-XXXXXX";
	assert_non_null(mkdtemp(tmp));
	char path[128];
	snprintf(path, sizeof path, "%s/audit.json", tmp);
	static const char one[] = "{\"type\":\"start\",\"run\":\"1\",\"pad\":\"aaaaaaaaaaaaaaaa\"}\n";
	static const char two[] = "{\"type\":\"end\",\"run\":\"1\",\"pad\":\"bbbbbbbbbbbbbbbbbbbbbbbb\"}\n";
	static const char three[] = "{\"type\":\"start\",\"run\":\"2\"}\n";
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGXFSZ, SIG_IGN);
		struct rlimit rl = {sizeof one - 1 + 10, RLIM_INFINITY};
		int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
		if (fd < 0 || setrlimit(RLIMIT_FSIZE, &rl) < 0)
			_exit(2);
		if (audit_log_write(fd, one, sizeof one - 1) != 0)
			_exit(3);
		if (audit_log_write(fd, two, sizeof two - 1) != -1)
			_exit(4); /* cut short: a failure */
		rl.rlim_cur = RLIM_INFINITY;
		if (setrlimit(RLIMIT_FSIZE, &rl) < 0 || audit_log_write(fd, three, sizeof three - 1))
			_exit(5);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	FILE *f = fopen(path, "re");
	assert_non_null(f);
	char got[512];
	size_t n = fread(got, 1, sizeof got - 1, f);
	fclose(f);
	got[n] = '\0';
	struct buf want = BUF_INIT;
	buf_printf(&want, "%s%s", one, three);
	assert_string_equal(got, want.data);
	buf_free(&want);
	/* Every line a JSON object. */
	char *save = NULL;
	for (char *line = strtok_r(got, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_object *o = json_tokener_parse(line);
		assert_non_null(o);
		json_object_put(o);
	}
	unlink(path);
	rmdir(tmp);
}

int main(void)
{
	private_state();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sink_refusals),
		cmocka_unit_test(test_fd_and_callback),
		cmocka_unit_test(test_log_created_0600_and_appended),
		cmocka_unit_test(test_log_refusals),
		cmocka_unit_test(test_log_owned_by_target_refused),
		cmocka_unit_test(test_log_owned_by_another_user_refused),
		cmocka_unit_test(test_log_ancestor_owned_by_target_refused),
		cmocka_unit_test(test_spawn_start_and_end),
		cmocka_unit_test(test_spawn_signal_and_free),
		cmocka_unit_test(test_end_recorded_when_reaped_elsewhere),
		cmocka_unit_test(test_spawn_refused_without_log),
		cmocka_unit_test(test_log_finding_escapes_the_config_name),
		cmocka_unit_test(test_preflight_record_and_checks),
		cmocka_unit_test(test_preflight_does_not_create_the_log),
		cmocka_unit_test(test_start_fields_survive_an_8k_cut),
		cmocka_unit_test(test_log_short_write_undone),
		cmocka_unit_test(test_undelivered_counted),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
