/* SPDX-License-Identifier: ISC */
/*
 * mkseeds DIR - the protocol targets' seed inputs, made with the real
 * encoders of src/proto, into DIR/NAME/SEED (NAME: payload, session,
 * signal, terminate, kill, exit, stopped, continued, report, agent, start,
 * started,
 * channel). fuzz/run.sh builds and runs it before fuzzing, so that the
 * seeds always match the encoders of the tree (a new PAYLOAD_VERSION
 * makes every committed payload seed a refusal); fuzz/corpus/NAME/ holds
 * what it wrote when the targets were made, and the regressions.
 *
 * Regenerate the committed seeds: build it as run.sh does and run
 * `mkseeds fuzz/corpus`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>

#include "agent.h"
#include "started.h"
#include "buf.h"
#include "channel.h"
#include "control.h"
#include "helper_report_write.h"
#include "payload.h"
#include "session.h"

static const char *top;
static int failed;

/* Writes b (and empties it) as top/name/seed. */
static void seed(const char *name, const char *seed_name, struct buf *b, int rc)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", top, name);
	if (mkdir(path, 0777) < 0 && errno != EEXIST) {
		perror(path);
		failed = 1;
	}
	snprintf(path, sizeof path, "%s/%s/%s", top, name, seed_name);
	FILE *f = fopen(path, "wb");
	if (rc < 0 || b->oom || !f || fwrite(b->data ? b->data : "", 1, b->len, f) != b->len ||
	    fclose(f) != 0) {
		fprintf(stderr, "mkseeds: %s: %s\n", path, rc < 0 || b->oom ? "encoder refused" : "write failed");
		failed = 1;
	}
	buf_reset(b);
}

/* Appends one framed message of type with body to out (a channel stream). */
static void frame(struct buf *out, int type, const struct buf *body)
{
	unsigned char h[5] = {(unsigned char)(body->len >> 24), (unsigned char)(body->len >> 16),
			      (unsigned char)(body->len >> 8), (unsigned char)body->len,
			      (unsigned char)type};
	buf_add(out, h, sizeof h);
	buf_add(out, body->data ? body->data : "", body->len);
}

static char *argv_true[] = {"/bin/true", NULL};
static char *argv_sh[] = {"/bin/sh", "-c", "echo \"$RUAS_RUN_ID\"; exit 3", NULL};
static char *env_names[] = {"LANG", "TERM", "EMPTY", NULL};
static char *env_values[] = {"C.UTF-8", "xterm-256color", "", NULL};
static char *deny[] = {"/home/alice/.ssh", "/etc/shadow", NULL};
static char *prune[] = {"node_modules", ".git", NULL};
static char *probes[] = {"/etc/shadow", "/root/.bash_history", NULL};
static char *anchors[] = {"etc-sudoers /etc/sudoers", "usr-bin /usr/bin", NULL};
static char *judged[] = {"1 /usr/bin", "2 /etc/systemd/system", NULL};
static char *commands[] = {"claude", "/srv/app/./run.sh", NULL};

static void payloads(struct buf *b)
{
	struct payload p = {.kind = PAYLOAD_EXEC, .user = "alice",
			    .helper = "/usr/libexec/ruas/ruas-exec",
			    .work_dir = "/srv/app", .argv = argv_true, .argc = 1,
			    .lifetime = LIFETIME_SUBREAPER};
	seed("payload", "exec-minimal", b, payload_encode(&p, b));
	seed("payload", "hello", b, payload_hello_encode(b));
	p.shell = "/bin/bash";
	p.home = "/home/alice";
	p.scope = "/srv";
	p.env_names = env_names;
	p.env_values = env_values;
	p.nenv = 3;
	p.argv = argv_sh;
	p.argc = 3;
	p.supervisor_pid = 4242;
	p.supervisor_start = 123456789ULL;
	p.grace_seconds = 5;
	p.exec_flags = EXEC_PRIVATE_TMP | EXEC_BWRAP | EXEC_PTY;
	p.person = "alice";
	p.deny = deny;
	p.ndeny = 2;
	p.lifetime = LIFETIME_AUTO;
	p.root = "/srv";
	p.run_id = "0123456789abcdef0123456789abcdef";
	p.audit_facility = (LOG_AUTHPRIV >> 3) + 1; /* as payload_facility_ok() counts */
	seed("payload", "exec-full", b, payload_encode(&p, b));

	struct payload c = {.kind = PAYLOAD_CHECK, .user = "alice", .sudo_path = "/usr/bin/sudo"};
	seed("payload", "check-minimal", b, payload_encode(&c, b));
	struct payload_dir dirs[2] = {{"/srv/app", "", prune, 2}, {"/home/alice/w", "/home/alice", NULL, 0}};
	c.scan_cap = 10000;
	c.scan_seconds = 30;
	c.dirs = dirs;
	c.ndirs = 2;
	c.check_flags = CHECK_BWRAP | CHECK_USERNS;
	c.probes = probes;
	c.nprobes = 2;
	c.anchors = anchors;
	c.nanchors = 2;
	c.judged_trees = judged;
	c.njudged_trees = 2;
	c.commands = commands;
	c.ncommands = 2;
	seed("payload", "check-full", b, payload_encode(&c, b));
}

static void sessions(struct buf *b)
{
	struct session s = {"alice", "ruas", "ops", "/dev/pts/3", SESSION_EXEC,
			    "/usr/libexec/ruas/ruas-exec", LIFETIME_PIDNS, 5};
	seed("session", "exec-tty", b, session_encode(&s, b));
	s.tty = "";
	s.mode = SESSION_CHECK;
	s.lifetime = LIFETIME_AUTO;
	seed("session", "check", b, session_encode(&s, b));
}

static void controls(struct buf *b)
{
	seed("signal", "term", b, msg_signal_encode(b, 15));
	seed("signal", "max", b, msg_signal_encode(b, MSG_SIGNAL_MAX));
	seed("terminate", "empty", b, msg_terminate_encode(b));
	seed("kill", "library", b, msg_kill_encode(b, 1));
	seed("kill", "helper", b, msg_kill_encode(b, 0));
	struct msg_exit e = {EXIT_HOW_EXITED, 3, 0, 1};
	seed("exit", "exited", b, msg_exit_encode(b, &e));
	e = (struct msg_exit){EXIT_HOW_SIGNALED, 9, 2, 1};
	seed("exit", "signaled", b, msg_exit_encode(b, &e));
	e = (struct msg_exit){EXIT_HOW_HELPER, 125, MSG_EXIT_SURVIVORS_UNKNOWN, 0};
	seed("exit", "helper", b, msg_exit_encode(b, &e));
	seed("stopped", "tstp", b, msg_stopped_encode(b, 20));
	seed("stopped", "ttin", b, msg_stopped_encode(b, 21));
	seed("continued", "empty", b, msg_continued_encode(b));
}

static void helper_report(struct buf *b, int capped)
{
	static const gid_t groups[] = {27, 100};
	struct dir_result denied = {.state = DIR_DENIED, .path = "/srv/app/secret", .missing = "rx",
				    .mode = 0700, .uid = 0};
	struct dir_result ok = {.state = DIR_OK};
	struct scan_item it = {"/srv/app/log", SCAN_NOT_WRITABLE, 0644, 0, NULL};
	report_begin(b, REPORT_FROM_HELPER);
	report_put_esc(b, 0, 1, 1, "Sorry, user alice may not run sudo on host.\n", 0);
	report_put_esc(b, 1, 1, 0, "User alice may run the following commands:\n", 1);
	report_put_gids(b, 1000, groups, 2);
	report_put_dir(b, 0, &ok);
	report_put_item(b, 0, &it);
	report_put_scan(b, 0, 120, 119, 0);
	report_put_dir(b, 1, &denied);
	report_put_bwrap(b, 1, "bwrap: No permissions to creating new namespace\n");
	report_put_passwd(b, 0, "alice NP 2026-12-05 0 99999 7 -1\n");
	report_put_doas(b, 0, "");
	report_put_lifetime(b, 1, "unshare(CLONE_NEWPID): Operation not permitted");
	report_put_probe(b, 0, PROBE_DENIED);
	report_put_probe(b, 1, PROBE_MISSING);
	struct report_anchor a = {"/etc/sudoers", 'w', AREL_SELF, "etc-sudoers", 0640, 1000,
				  0, 0, "/etc/sudoers"};
	size_t n = 2;
	if (capped) { /* short, so that the cap's 64 records fit run.sh's -max_len */
		a = (struct report_anchor){"/e", 'w', AREL_SELF, "e", 0600, 1000, 1000, 1, "/e"};
		n = ANCHOR_REPORT_CAP;
	}
	for (size_t i = 0; i < n; i++) {
		a.how = "owrdc"[i % 5];
		a.rel = AREL_SELF + (int)(i % 4);
		report_put_anchor(b, &a);
	}
	report_put_anchors(b, capped ? 1000 : n);
}

static void reports(struct buf *b)
{
	struct dir_result missing = {.state = DIR_MISSING, .path = "/srv/gone", .errnum = 2};
	struct dir_result escape = {.state = DIR_ESCAPE, .path = "resolves outside its scope"};
	buf_addc(b, 0); /* ndirs */
	report_begin(b, REPORT_FROM_HELPER);
	report_put_esc(b, 0, 1, 1, "", 0);
	report_put_esc(b, 1, 1, 1, "", 0);
	report_put_gids(b, 1000, NULL, 0);
	report_put_anchors(b, 0);
	seed("report", "helper-minimal", b, 0);
	buf_addc(b, 2);
	helper_report(b, 0);
	seed("report", "helper-full", b, 0);
	buf_addc(b, 2);
	helper_report(b, 1);
	seed("report", "helper-anchors-capped", b, 0);
	buf_addc(b, 3);
	report_begin(b, REPORT_FROM_HELPER);
	report_put_dir(b, 2, &escape);
	report_put_gids(b, 0, NULL, 0);
	report_put_esc(b, 1, 0, 0, "(ALL) ALL\n", 0);
	report_put_dir(b, 0, &missing);
	report_put_esc(b, 0, 0, 0, "(ALL) ALL\n", 0);
	report_put_anchors(b, 0);
	seed("report", "helper-unordered", b, 0);
	buf_addc(b, 0);
	report_begin(b, REPORT_FROM_SESSION);
	report_put_acct(b, 1, NULL);
	seed("report", "session-ok", b, 0);
	buf_addc(b, 1);
	report_begin(b, REPORT_FROM_SESSION);
	report_put_pidns(b, 1, "unshare(CLONE_NEWPID): Operation not permitted");
	report_put_acct(b, 0, "Authentication token is no longer valid; new one required");
	seed("report", "session-fail", b, 0);
}

static void agents(struct buf *b)
{
	struct agent_start a = {argv_true, 1, NULL, NULL, 0, "/srv/app", NULL, NULL};
	static char *none[] = {NULL};
	a.env_names = a.env_values = none;
	seed("agent", "minimal", b, agent_encode(&a, b));
	a = (struct agent_start){argv_sh, 3, env_names, env_values, 3, "/home/alice/w", NULL, NULL};
	seed("agent", "env", b, agent_encode(&a, b));
	a.root = "/wt/alice/repo";
	a.scope = "/wt/alice";
	seed("agent", "scoped", b, agent_encode(&a, b));
	seed("start", "exec", b, msg_start_encode(b, START_EXEC, 0));
	seed("start", "failed", b, msg_start_encode(b, START_FAILED, ENOENT));
	seed("start", "no-work-dir", b, msg_start_encode(b, START_NO_WORK_DIR, EACCES));
	struct msg_started ok = {1, 0, 0, LIFETIME_PIDNS, 4242, 1, ""};
	seed("started", "ok", b, msg_started_encode(b, &ok));
	struct msg_started no = {0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_SUBREAPER, 0, 0,
				 "cannot run \"claude\": No such file or directory"};
	seed("started", "exec-enoent", b, msg_started_encode(b, &no));
}

/* Streams of framed messages, as each channel carries them. */
static void channels(struct buf *b)
{
	struct buf m = BUF_INIT;
	struct session s = {"alice", "ruas", "ops", "", SESSION_EXEC, "/usr/libexec/ruas/ruas-exec",
			    LIFETIME_SUBREAPER, 5};
	struct payload p = {.kind = PAYLOAD_EXEC, .user = "alice",
			    .helper = "/usr/libexec/ruas/ruas-exec",
			    .work_dir = "/srv/app", .argv = argv_true, .argc = 1};
	struct msg_exit e = {EXIT_HOW_EXITED, 0, 0, 1};
	int rc = session_encode(&s, &m);
	frame(b, CHANNEL_SESSION, &m);
	buf_reset(&m);
	rc |= payload_encode(&p, &m);
	frame(b, CHANNEL_PAYLOAD, &m);
	buf_reset(&m);
	rc |= msg_signal_encode(&m, 2);
	frame(b, CHANNEL_SIGNAL, &m);
	buf_reset(&m);
	frame(b, CHANNEL_TERMINATE, &m);
	rc |= msg_kill_encode(&m, 1);
	frame(b, CHANNEL_KILL, &m);
	buf_reset(&m);
	seed("channel", "library-side", b, rc);

	rc = msg_stopped_encode(&m, 20);
	frame(b, CHANNEL_STOPPED, &m);
	buf_reset(&m);
	frame(b, CHANNEL_CONTINUED, &m);
	rc |= msg_exit_encode(&m, &e);
	frame(b, CHANNEL_EXIT, &m);
	buf_reset(&m);
	seed("channel", "helper-side", b, rc);

	report_begin(&m, REPORT_FROM_SESSION);
	report_put_acct(&m, 1, NULL);
	frame(b, CHANNEL_REPORT, &m);
	buf_reset(&m);
	report_begin(&m, REPORT_FROM_HELPER);
	report_put_esc(&m, 0, 1, 1, "", 0);
	report_put_esc(&m, 1, 1, 1, "", 0);
	report_put_gids(&m, 1000, NULL, 0);
	report_put_anchors(&m, 0);
	frame(b, CHANNEL_REPORT, &m);
	buf_reset(&m);
	seed("channel", "check-reports", b, 0);

	struct agent_start a = {argv_true, 1, env_names, env_values, 1, "/srv/app", NULL, NULL};
	rc = agent_encode(&a, &m);
	frame(b, CHANNEL_AGENT, &m);
	buf_reset(&m);
	rc |= msg_start_encode(&m, START_FAILED, EACCES);
	frame(b, CHANNEL_START, &m);
	/* And cut inside its last body: the stream ends mid-message. */
	b->len -= 2;
	seed("channel", "agent-cut", b, rc);
	buf_free(&m);
}

int main(int argc, char **argv)
{
	struct buf b = BUF_INIT;
	if (argc != 2) {
		fprintf(stderr, "usage: mkseeds DIR\n");
		return 2;
	}
	top = argv[1];
	payloads(&b);
	sessions(&b);
	controls(&b);
	reports(&b);
	agents(&b);
	channels(&b);
	buf_free(&b);
	return failed;
}
