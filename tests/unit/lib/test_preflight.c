/*
 * test_preflight.c - the startup checks (src/lib/check/preflight.h) with a fake sudo
 * runner and a fake user database (nss_wrapper, see nss_env.h).
 *
 * The fake runner records every request and answers per target user: a
 * helper report in the wire format of src/common/proto/wire.h, built from the payload it
 * was given (nonce and work_dirs), or one of the ways sudo fails.
 * Work_dirs steer the per-directory answer by their name:
 *   ".../denied..."     dir I denied HEX(path) rx 750 HEX(root)
 *   ".../missing..."    dir I missing HEX(path) 2
 *   ".../scan3..."      three items, total 19
 *   ".../scanall..."    two items, total 2
 *   ".../incomplete..." scan incomplete after 12345 entries
 *   anything else       dir I ok, nothing found
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "config/config_int.h"
#include "fixture.h"
#include "nss_env.h"
#include "payload.h"
#include "check/preflight.h"
#include "ruas.h"
#include "check/runner.h"
#include "wire.h"

#define SUPERVISOR_UID 1500
#define SUDO "/usr/bin/sudo"
#define HELPER "/usr/libexec/ruas/ruas-exec"
/*
 * The one shape of sudo call (src/lib/spawn/sudo_call.h, docs/run-as-user.md):
 * {sudo, -n, -iu, USER, --, exec, HELPER, --channel, TOKEN}; the payload
 * goes over the channel (req->channel->payload), which the fake reads
 * directly instead of playing the helper's end of the socket.
 */
#define SUDO_ARGC 9
#define TOKEN_ARG 8

static const char passwd_lines[] =
	"root:x:0:0:root:/root:/bin/sh\n"
	"sup:x:1500:1500:supervisor:/home/sup:/bin/sh\n"
	"t1:x:1501:1501::/home/t1:/bin/sh\n"
	"t2:x:1502:1502::/home/t2:/bin/sh\n"
	"nol:x:1503:1503::/home/nol:/usr/sbin/nologin\n"
	"noshell:x:1504:1504::/home/noshell:/nonexistent/shell\n"
	"dockr:x:1505:1505::/home/dockr:/bin/sh\n"
	"admr:x:1507:1507::/home/admr:/bin/sh\n"
	"rootg:x:1508:0:primary group root:/home/rootg:/bin/sh\n"
	"falsey:x:1506:1506::/home/falsey:/bin/false\n"
	"zero:x:0:0:not named root:/home/zero:/bin/sh\n"
	"supalias:x:1500:1500:same uid as sup:/home/sup:/bin/sh\n"
	"p1:x:1511:1511::/home/p1:/bin/sh\n"
	"p2:x:1512:1512::/home/p2:/bin/sh\n"
	"p3:x:1513:1513::/home/p3:/bin/sh\n"
	"p4:x:1514:1514::/home/p4:/bin/sh\n"
	"p5:x:1515:1515::/home/p5:/bin/sh\n"
	"p6:x:1516:1516::/home/p6:/bin/sh\n"
	"p7:x:1517:1517::/home/p7:/bin/sh\n"
	"p8:x:1518:1518::/home/p8:/bin/sh\n";

static const char group_lines[] =
	"root:x:0:\n"
	"sudo:x:27:\n"
	"adm:x:4:admr\n"
	"kmem:x:15:rootg\n"
	"docker:x:998:dockr\n"
	"sup:x:1500:\n"
	"t1:x:1501:\n"
	"t2:x:1502:\n"
	"nol:x:1503:\n"
	"noshell:x:1504:\n"
	"dockr:x:1505:\n"
	"admr:x:1507:\n"
	"falsey:x:1506:\n"
	"p1:x:1511:\n"
	"p2:x:1512:\n"
	"p3:x:1513:\n"
	"p4:x:1514:\n"
	"p5:x:1515:\n"
	"p6:x:1516:\n"
	"p7:x:1517:\n"
	"p8:x:1518:\n";

/* ------------------------------------------------------- fake runner */

enum behave {
	B_REPORT = 0,   /* a well-formed report */
	B_EXIT,         /* exit_code with err_text, no report */
	B_SPAWN_ERRNO,  /* the command never started */
	B_TIMEOUT,      /* killed by the runner's timeout */
	B_WRONG_NONCE,  /* a complete report, but for another nonce */
	B_FORGED_FIRST, /* a forged block (other nonce), then the real report */
};

struct script {
	const char *user;
	enum behave b;
	int true_rc, list_rc; /* B_REPORT; both default to 1 (no escalation) */
	const char *list;
	const char *noise;  /* printed before the report */
	int exit_code;      /* B_EXIT */
	const char *err_text;
	int spawn_errno;    /* B_SPAWN_ERRNO */
	unsigned int sleep_ms;
	int omit_dirs;      /* report without any dir records */
	int esc_set;        /* true_rc/list_rc given */
};

/*
 * The fake's lifetime record, when the payload asks (CHECK_USERNS): its
 * errno, 0 (the namespace works) unless a test sets it; -1: no record.
 */
static int userns_errno;

/*
 * What the fake reports on trust anchors, per user (NULL: none failing):
 * `anchor` records verbatim, and the `anchors` count (0: as many as there
 * are records; -1: no summary at all). Set by a test, cleared after it.
 */
struct anchor_script {
	const char *user;
	const char *lines;
	long total;
};
static const struct anchor_script *anchor_scripts;
static size_t nanchor_scripts;

struct call {
	char *path;
	char **argv;
	size_t argc;
	size_t nenv;
	size_t max_output;
	unsigned int timeout_ms;
	char *payload; /* what went over the channel, or NULL */
	int listening;  /* the call came with a listener for its token */
};

#define MAX_CALLS 64

/* What root's `sudo -n -l -U USER` answers (runner.root set). */
struct root_answer {
	const char *user;
	int exit_code;
	const char *text;
	int tty_only; /* answers only on a pty; without one: "you must have a tty" */
};

struct fake {
	pthread_mutex_t lock;
	const struct script *scripts;
	size_t nscripts;
	struct call calls[MAX_CALLS];
	size_t ncalls;
	int inflight, peak;
	int overflow;
	const struct root_answer *root; /* NULL-user-terminated */
	int root_calls, root_pty_calls;
	/* The tree the lifetime check reads; NULL: one that does not exist (a clean host). */
	const char *fs_root;
};

static const struct script default_script = {NULL, B_REPORT, 1, 1, "", NULL, 0,
					     NULL, 0, 0, 0, 1};

static const struct script *script_for(const struct fake *fk, const char *user)
{
	for (size_t i = 0; user && i < fk->nscripts; i++)
		if (strcmp(fk->scripts[i].user, user) == 0)
			return &fk->scripts[i];
	return &default_script;
}

static void add_hex(struct buf *b, const char *s)
{
	hex_encode(b, s, strlen(s));
}

static void emit_dirs(struct buf *o, const struct payload *p)
{
	for (size_t i = 0; i < p->ndirs; i++) {
		const char *wd = p->dirs[i].work_dir;
		if (strstr(wd, "/denied")) {
			buf_printf(o, "dir %zu denied ", i);
			add_hex(o, wd);
			buf_adds(o, " rx 750 ");
			add_hex(o, "root");
			buf_addc(o, '\n');
			continue;
		}
		if (strstr(wd, "/missing")) {
			buf_printf(o, "dir %zu missing ", i);
			add_hex(o, wd);
			buf_adds(o, " 2\n");
			continue;
		}
		buf_printf(o, "dir %zu ok\n", i);
		if (strstr(wd, "/scan3") || strstr(wd, "/scanall")) {
			static const char *const names[] = {"/a secret", "/b.db", "/c"};
			size_t n = strstr(wd, "/scan3") ? 3 : 2;
			for (size_t k = 0; k < n; k++) {
				char path[512];
				snprintf(path, sizeof path, "%s%s", wd, names[k]);
				buf_printf(o, "item %zu ", i);
				add_hex(o, path);
				buf_printf(o, " %u 600 ", k == 1 ? 3u : 1u);
				add_hex(o, "leigh");
				buf_addc(o, '\n');
			}
			buf_printf(o, "scan %zu %u 40 0\n", i, n == 3 ? 19u : 2u);
		} else if (strstr(wd, "/incomplete")) {
			buf_printf(o, "scan %zu 0 12345 1\n", i);
		} else {
			buf_printf(o, "scan %zu 0 7 0\n", i);
		}
	}
}

/* user: whose login session; its groups are its own, from the (wrapped) database. */
static void emit_report(struct buf *o, const struct script *s, const char *nonce,
			const struct payload *p, const char *user)
{
	int list_rc = s->esc_set ? s->list_rc : 1;
	/* What sudo -n -l says to a user with no rules (and listpw=never). */
	const char *list = s->list && *s->list ? s->list
			   : list_rc	     ? "Sorry, user t1 may not run sudo on host.\n"
					     : "";
	buf_printf(o, "%s %s\n", WIRE_BEGIN, nonce);
	/* The same answer without a terminal and on the helper's pty. */
	for (int tty = 0; tty < 2; tty++) {
		buf_printf(o, "%s %d %d ", tty ? "esctty" : "esc", s->esc_set ? s->true_rc : 1,
			   list_rc);
		add_hex(o, list);
		buf_adds(o, " 0\n");
	}
	{
		struct passwd pwbuf, *pw = NULL;
		unsigned int gid = 65534u; /* nogroup: no risk */
		if (user) {
			char mem[4096];
			if (getpwnam_r(user, &pwbuf, mem, sizeof mem, &pw) == 0 && pw)
				gid = (unsigned int)pw->pw_gid;
		}
		buf_printf(o, "gids %u\n", gid);
	}
	if ((p->check_flags & CHECK_USERNS) && userns_errno >= 0) {
		buf_printf(o, "lifetime %d ", userns_errno);
		add_hex(o, userns_errno ? "unshare: Operation not permitted" : "");
		buf_addc(o, '\n');
	}
	if (!s->omit_dirs)
		emit_dirs(o, p);
	const struct anchor_script *as = NULL;
	for (size_t i = 0; s->user && i < nanchor_scripts; i++)
		if (strcmp(anchor_scripts[i].user, s->user) == 0)
			as = &anchor_scripts[i];
	long lines = 0;
	for (const char *c = as ? as->lines : NULL; c && *c; c++)
		lines += *c == '\n';
	if (as && as->lines)
		buf_adds(o, as->lines);
	if (!as || as->total >= 0)
		buf_printf(o, "anchors %ld\n", as && as->total ? as->total : lines);
	buf_printf(o, "%s %s\n", WIRE_END, nonce);
}

static const char other_nonce[] = "0123456789abcdef0123456789abcdef";

static int fake_run(void *ctx, const struct run_request *req, struct run_result *res)
{
	struct fake *fk = ctx;
	memset(res, 0, sizeof *res);

	size_t argc = 0;
	while (req->argv[argc])
		argc++;
	size_t nenv = 0;
	while (req->envp && req->envp[nenv])
		nenv++;

	pthread_mutex_lock(&fk->lock);
	struct call *c = NULL;
	if (fk->ncalls < MAX_CALLS)
		c = &fk->calls[fk->ncalls++];
	else
		fk->overflow = 1;
	if (++fk->inflight > fk->peak)
		fk->peak = fk->inflight;
	pthread_mutex_unlock(&fk->lock);

	if (c) {
		c->path = strdup(req->path);
		c->argv = calloc(argc + 1, sizeof *c->argv);
		for (size_t i = 0; c->argv && i < argc; i++)
			c->argv[i] = strdup(req->argv[i]);
		c->argc = argc;
		c->nenv = nenv;
		c->max_output = req->max_output;
		c->timeout_ms = req->timeout_ms;
		c->payload = req->channel && req->channel->payload->data
				     ? strdup(req->channel->payload->data)
				     : NULL;
		c->listening = req->channel && req->channel->listen_fd >= 0;
	}

	if (argc == 5 && strcmp(req->argv[2], "-l") == 0 && strcmp(req->argv[3], "-U") == 0) {
		const struct root_answer *a = fk->root;
		while (a && a->user && strcmp(a->user, req->argv[4]) != 0)
			a++;
		pthread_mutex_lock(&fk->lock);
		fk->root_calls++;
		fk->root_pty_calls += req->pty != 0;
		fk->inflight--;
		pthread_mutex_unlock(&fk->lock);
		if (!a || !a->user) {
			buf_printf(&res->out, "User %s is not allowed to run sudo on host.\n",
				   req->argv[4]);
		} else if (a->tty_only && !req->pty) {
			buf_adds(&res->err, "sudo: sorry, you must have a tty to run sudo\n");
			res->wait_status = 1 << 8;
		} else {
			buf_adds(&res->out, a->text);
			res->wait_status = (a->exit_code & 0xff) << 8;
		}
		return 0;
	}
	const char *user = argc > 3 ? req->argv[3] : NULL;
	const struct script *s = script_for(fk, user);
	struct payload p;
	const char *why = NULL;
	int decoded = req->channel && req->channel->payload->data &&
		      payload_decode(req->channel->payload->data, &p, &why) == 0;

	if (s->sleep_ms) {
		struct timespec ts = {s->sleep_ms / 1000, (long)(s->sleep_ms % 1000) * 1000000L};
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}

	if (s->noise)
		buf_adds(&res->out, s->noise);
	switch (s->b) {
	case B_REPORT:
		if (decoded)
			emit_report(&res->out, s, p.nonce, &p, user);
		else
			buf_adds(&res->err, "fake runner: no payload to answer\n");
		break;
	case B_FORGED_FIRST: {
		struct script forged = *s;
		forged.true_rc = forged.list_rc = 0;
		forged.esc_set = 1;
		forged.list = "forged: (ALL) NOPASSWD: ALL\n";
		if (decoded) {
			emit_report(&res->out, &forged, other_nonce, &p, user);
			emit_report(&res->out, s, p.nonce, &p, user);
		}
		break;
	}
	case B_WRONG_NONCE: {
		struct script forged = *s;
		forged.true_rc = forged.list_rc = 0;
		forged.esc_set = 1;
		if (decoded)
			emit_report(&res->out, &forged, other_nonce, &p, user);
		break;
	}
	case B_EXIT:
		if (s->err_text)
			buf_adds(&res->err, s->err_text);
		res->wait_status = (s->exit_code & 0xff) << 8;
		break;
	case B_SPAWN_ERRNO:
		res->spawn_errno = s->spawn_errno;
		break;
	case B_TIMEOUT:
		res->timed_out = 1;
		res->wait_status = SIGTERM; /* killed by the signal */
		break;
	}
	if (decoded)
		payload_free(&p);

	pthread_mutex_lock(&fk->lock);
	fk->inflight--;
	pthread_mutex_unlock(&fk->lock);
	return 0;
}

static void fake_init(struct fake *fk, const struct script *scripts, size_t n)
{
	memset(fk, 0, sizeof *fk);
	pthread_mutex_init(&fk->lock, NULL);
	fk->scripts = scripts;
	fk->nscripts = n;
}

static void fake_free(struct fake *fk)
{
	for (size_t i = 0; i < fk->ncalls; i++) {
		free(fk->calls[i].path);
		free(fk->calls[i].payload);
		for (size_t k = 0; fk->calls[i].argv && k < fk->calls[i].argc; k++)
			free(fk->calls[i].argv[k]);
		free(fk->calls[i].argv);
	}
	pthread_mutex_destroy(&fk->lock);
}

/* ----------------------------------------------------------- configs */

struct proj {
	const char *name;
	const char *user; /* NULL: legacy */
	const char *work_dir;
	const char *extra; /* more keys, or NULL */
};

static char *config_text(const struct proj *ps, size_t n, const char *globals)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "backend = \"sudo\";\nsudo = \"%s\";\nhelper = \"%s\";\n%s\nprojects = (\n", SUDO,
		   HELPER, globals ? globals : "");
	for (size_t i = 0; i < n; i++) {
		buf_printf(&b, "  { name = \"%s\"; work_dir = \"%s\"; command = [\"agent\"];",
			   ps[i].name, ps[i].work_dir);
		if (ps[i].user)
			buf_printf(&b, " run_as_user = \"%s\";", ps[i].user);
		if (ps[i].extra)
			buf_printf(&b, " %s", ps[i].extra);
		buf_printf(&b, " }%s\n", i + 1 < n ? "," : "");
	}
	buf_adds(&b, ");\n");
	assert_false(b.oom);
	return buf_detach(&b);
}

static ruas_config *load(const struct proj *ps, size_t n, const char *globals)
{
	char *text = config_text(ps, n, globals);
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	o.supervisor_uid = SUPERVISOR_UID;
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	int r = ruas_config_load_buffer(&cfg, text, strlen(text), "preflight.conf", &o, &err);
	if (r != 0)
		fail_msg("config refused: %s\n%s", ruas_error_message(err), text);
	free(text);
	return cfg;
}

/* Runs the preflight through the fake; the report must be there. */
static ruas_report *run(const ruas_config *cfg, struct fake *fk, unsigned int max_parallel)
{
	struct runner rn = {fake_run, fk, fk->root != NULL,
			    fk->fs_root ? fk->fs_root : "/nonexistent/ruas-test-fs-root"};
	ruas_report *rep = NULL;
	ruas_error *err = NULL;
	int r = preflight_run(&rep, cfg, max_parallel, &rn, &err);
	if (r != 0)
		fail_msg("preflight_run failed: %s", ruas_error_message(err));
	assert_null(err);
	assert_non_null(rep);
	assert_false(fk->overflow);
	return rep;
}

/* ----------------------------------------------------------- asserts */

static int is_lower_hex(const char *s)
{
	if (!*s || strlen(s) % 2)
		return 0;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return 0;
	return 1;
}

/* Every call is exactly {sudo, -n, -iu, USER, --, exec, HELPER, --channel, TOKEN}, empty env. */
static void assert_calls_well_formed(const struct fake *fk, const ruas_config *cfg)
{
	for (size_t i = 0; i < fk->ncalls; i++) {
		const struct call *c = &fk->calls[i];
		assert_string_equal(c->path, SUDO);
		if (c->argc != SUDO_ARGC)
			fail_msg("sudo call %zu has %zu arguments, expected %d", i, c->argc,
				 SUDO_ARGC);
		assert_string_equal(c->argv[0], SUDO);
		assert_string_equal(c->argv[1], "-n");
		assert_string_equal(c->argv[2], "-iu");
		int known = 0;
		for (size_t k = 0; k < ruas_config_project_count(cfg); k++) {
			const char *u = ruas_project_run_as_user(ruas_config_project_at(cfg, k));
			known |= u && strcmp(u, c->argv[3]) == 0;
		}
		if (!known)
			fail_msg("sudo call %zu is for \"%s\", no project's run_as_user", i,
				 c->argv[3]);
		assert_string_equal(c->argv[4], "--");
		assert_string_equal(c->argv[5], "exec");
		assert_string_equal(c->argv[6], HELPER);
		assert_string_equal(c->argv[7], "--channel");
		if (strlen(c->argv[TOKEN_ARG]) != 32 || !is_lower_hex(c->argv[TOKEN_ARG]))
			fail_msg("token of call %zu is not 32 lower-case hex digits", i);
		assert_true(c->listening);
		assert_null(c->argv[SUDO_ARGC]);
		if (!c->payload || !is_lower_hex(c->payload))
			fail_msg("payload of call %zu is missing or not lower-case hex", i);
		assert_int_equal(c->nenv, 0);
		assert_true(c->max_output >= 65536);

		struct payload p;
		const char *why = NULL;
		if (payload_decode(c->payload, &p, &why) != 0)
			fail_msg("payload of call %zu does not decode: %s", i, why);
		assert_int_equal(p.kind, PAYLOAD_CHECK);
		assert_string_equal(p.sudo_path, SUDO);
		assert_int_equal(p.scan_cap, 50);
		assert_int_equal(p.scan_seconds, cfg->scan_time_limit);
		assert_true(strlen(p.nonce) >= 16);
		assert_true(c->timeout_ms >= 1000u * cfg->scan_time_limit * p.ndirs);
		/* Nothing of the payload is on the command line, which everyone reads. */
		for (size_t d = 0; d < p.ndirs; d++)
			for (size_t k = 0; k < c->argc; k++)
				if (strstr(c->argv[k], p.dirs[d].work_dir))
					fail_msg("work_dir %s is on the command line of call %zu",
						 p.dirs[d].work_dir, i);
		for (size_t k = 0; k < c->argc; k++)
			assert_null(strstr(c->argv[k], p.nonce));
		payload_free(&p);
	}
}

static const struct call *call_for(const struct fake *fk, const char *user)
{
	const struct call *found = NULL;
	for (size_t i = 0; i < fk->ncalls; i++)
		if (fk->calls[i].argc > 3 && strcmp(fk->calls[i].argv[3], user) == 0) {
			if (found)
				fail_msg("more than one sudo call for user %s", user);
			found = &fk->calls[i];
		}
	return found;
}

static void dump_report(const ruas_report *rep)
{
	for (size_t p = 0; p < ruas_report_project_count(rep); p++)
		for (size_t i = 0; i < ruas_report_item_count(rep, p); i++)
			print_message("[%s #%zu %s %s]\n%s", ruas_report_project_name(rep, p),
				      i, ruas_report_item_check(rep, p, i),
				      ruas_report_item_severity(rep, p, i) == RUAS_SEVERITY_FATAL
					      ? "fatal"
					      : "warning",
				      ruas_report_item_text(rep, p, i));
}

/* Item i of project p has this severity, check, and text containing `part`. */
static void assert_item(const ruas_report *rep, size_t p, size_t i, ruas_severity sev,
			const char *check, const char *part)
{
	if (i >= ruas_report_item_count(rep, p)) {
		dump_report(rep);
		fail_msg("project %zu has %zu items, expected at least %zu", p,
			 ruas_report_item_count(rep, p), i + 1);
	}
	const char *text = ruas_report_item_text(rep, p, i);
	if (ruas_report_item_severity(rep, p, i) != sev ||
	    strcmp(ruas_report_item_check(rep, p, i), check) != 0 ||
	    (part && !strstr(text, part))) {
		dump_report(rep);
		fail_msg("project %zu item %zu: expected %s \"%s\" containing \"%s\"", p, i,
			 sev == RUAS_SEVERITY_FATAL ? "fatal" : "warning", check,
			 part ? part : "");
	}
	assert_true(strncmp(text, sev == RUAS_SEVERITY_FATAL ? "ERROR: " : "WARNING: ",
			    sev == RUAS_SEVERITY_FATAL ? 7 : 9) == 0);
	assert_int_equal(text[strlen(text) - 1], '\n');
}

static void assert_count(const ruas_report *rep, size_t p, size_t n)
{
	if (ruas_report_item_count(rep, p) != n) {
		dump_report(rep);
		fail_msg("project %zu (%s) has %zu items, expected %zu", p,
			 ruas_report_project_name(rep, p), ruas_report_item_count(rep, p), n);
	}
}

/* A single project for user `user` at `wd`, run with one script. */
static ruas_report *run_one(const char *user, const char *wd, const struct script *s,
			    struct fake *fk, ruas_config **cfgp)
{
	const struct proj ps[] = {{"proj", user, wd, NULL}};
	*cfgp = load(ps, 1, NULL);
	fake_init(fk, s, s ? 1 : 0);
	ruas_report *rep = run(*cfgp, fk, 0);
	assert_calls_well_formed(fk, *cfgp);
	assert_int_equal(ruas_report_project_count(rep), 1);
	assert_string_equal(ruas_report_project_name(rep, 0), "proj");
	return rep;
}

static void done(ruas_report *rep, ruas_config *cfg, struct fake *fk)
{
	ruas_report_free(rep);
	ruas_config_free(cfg);
	fake_free(fk);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------- tests */

static void test_fake_user_database_active(void **state)
{
	(void)state;
	struct passwd *pw = getpwnam("sup");
	assert_non_null(pw);
	assert_int_equal(pw->pw_uid, SUPERVISOR_UID);
	pw = getpwnam("nol");
	assert_non_null(pw);
	assert_string_equal(pw->pw_shell, "/usr/sbin/nologin");
	pw = getpwuid(SUPERVISOR_UID);
	assert_non_null(pw);
	assert_string_equal(pw->pw_name, "sup");
}

static void refused_user(const char *user, const char *reason)
{
	char *text = NULL;
	assert_true(asprintf(&text,
			     "projects = (\n"
			     "  { name = \"p\"; work_dir = \"/srv/p\"; command = [\"a\"];\n"
			     "    run_as_user = \"%s\"; }\n"
			     ");\n",
			     user) > 0);
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	o.supervisor_uid = SUPERVISOR_UID;
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	int r = ruas_config_load_buffer(&cfg, text, strlen(text), "x.conf", &o, &err);
	free(text);
	if (r == 0) {
		ruas_config_free(cfg);
		fail_msg("run_as_user \"%s\" accepted", user);
	}
	assert_int_equal(r, RUAS_ERR_CONFIG);
	assert_int_equal(ruas_error_line(err), 3);
	if (!strstr(ruas_error_message(err), reason))
		fail_msg("message lacks \"%s\": %s", reason, ruas_error_message(err));
	ruas_error_free(err);
}

static void test_config_refuses_uid0_and_supervisor(void **state)
{
	(void)state;
	refused_user("zero", "has uid 0");
	refused_user("root", "is root");
	refused_user("sup", "is the supervisor itself");
	refused_user("supalias", "has the supervisor's uid 1500");

	/* A user that exists and one that does not are both fine at load. */
	const struct proj ps[] = {{"a", "t1", "/srv/a", NULL}, {"b", "ghost", "/srv/b", NULL}};
	ruas_config_free(load(ps, 2, NULL));
}

static void test_all_ok_and_legacy_skipped(void **state)
{
	(void)state;
	const struct proj ps[] = {
		{"legacy1", NULL, "/srv/l1", NULL},
		{"a", "t1", "/srv/a", NULL},
		{"legacy2", NULL, "/srv/l2", NULL},
	};
	ruas_config *cfg = load(ps, 3, NULL);
	struct fake fk;
	fake_init(&fk, NULL, 0);
	ruas_report *rep = run(cfg, &fk, 0);
	assert_int_equal(fk.ncalls, 1);
	assert_calls_well_formed(&fk, cfg);
	const struct call *c = call_for(&fk, "t1");
	assert_non_null(c);

	struct payload p;
	const char *why;
	assert_int_equal(payload_decode(c->payload, &p, &why), 0);
	assert_int_equal(p.ndirs, 1);
	assert_string_equal(p.dirs[0].work_dir, "/srv/a");
	static const char *const prune[] = {".git", "node_modules", ".venv", "venv", "dist",
					    "build", "target", ".pytest_cache",
					    "__pycache__"};
	assert_int_equal(p.dirs[0].nprune, 9);
	for (size_t i = 0; i < 9; i++)
		assert_string_equal(p.dirs[0].prune[i], prune[i]);
	payload_free(&p);

	assert_int_equal(ruas_report_project_count(rep), 3);
	assert_string_equal(ruas_report_project_name(rep, 0), "legacy1");
	assert_string_equal(ruas_report_project_name(rep, 1), "a");
	assert_string_equal(ruas_report_project_name(rep, 2), "legacy2");
	for (size_t i = 0; i < 3; i++)
		assert_count(rep, i, 0);
	assert_false(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

static void test_only_legacy_makes_no_call(void **state)
{
	(void)state;
	const struct proj ps[] = {{"l", NULL, "/srv/l", NULL}};
	ruas_config *cfg = load(ps, 1, NULL);
	struct fake fk;
	fake_init(&fk, NULL, 0);
	ruas_report *rep = run(cfg, &fk, 0);
	assert_int_equal(fk.ncalls, 0);
	assert_count(rep, 0, 0);
	assert_false(ruas_report_has_fatal(rep));
	ruas_report_free(rep);
	fake_free(&fk);

	/* The public entry point, with the real runner: nothing to run either. */
	ruas_error *err = NULL;
	assert_int_equal(ruas_preflight(&rep, cfg, NULL, &err), 0);
	assert_int_equal(ruas_report_project_count(rep), 1);
	assert_count(rep, 0, 0);
	ruas_report_free(rep);

	ruas_preflight_options o = RUAS_PREFLIGHT_OPTIONS_INIT;
	o.version = 99;
	rep = (ruas_report *)0x1;
	assert_int_equal(ruas_preflight(&rep, cfg, &o, &err), RUAS_ERR_INVALID);
	ruas_error_free(err);
	ruas_config_free(cfg);
}

static void test_one_call_per_user(void **state)
{
	(void)state;
	const struct proj ps[] = {
		{"a", "t1", "/srv/a", NULL},
		{"b", "t2", "/srv/b", NULL},
		{"c", "t1", "/srv/c", NULL},
		{"d", "t1", "/srv/a", NULL}, /* same work_dir and prune as a: one dir */
		{"e", NULL, "/srv/e", NULL},
		{"f", "t1", "/srv/a", "scan_prune = [\"x\"];"}, /* other prune: own dir */
		{"g", "t2", "/srv/denied", NULL},
	};
	ruas_config *cfg = load(ps, 7, NULL);
	struct fake fk;
	fake_init(&fk, NULL, 0);
	ruas_report *rep = run(cfg, &fk, 0);
	assert_int_equal(fk.ncalls, 2);
	assert_calls_well_formed(&fk, cfg);

	struct payload p;
	const char *why;
	const struct call *c1 = call_for(&fk, "t1");
	assert_non_null(c1);
	assert_int_equal(payload_decode(c1->payload, &p, &why), 0);
	assert_int_equal(p.ndirs, 3);
	assert_string_equal(p.dirs[0].work_dir, "/srv/a");
	assert_string_equal(p.dirs[1].work_dir, "/srv/c");
	assert_string_equal(p.dirs[2].work_dir, "/srv/a");
	assert_int_equal(p.dirs[0].nprune, 9);
	assert_int_equal(p.dirs[2].nprune, 1);
	assert_string_equal(p.dirs[2].prune[0], "x");
	payload_free(&p);

	const struct call *c2 = call_for(&fk, "t2");
	assert_non_null(c2);
	assert_int_equal(payload_decode(c2->payload, &p, &why), 0);
	assert_int_equal(p.ndirs, 2);
	assert_string_equal(p.dirs[0].work_dir, "/srv/b");
	assert_string_equal(p.dirs[1].work_dir, "/srv/denied");
	payload_free(&p);
	/* The two users got different nonces. */
	struct payload p1, p2;
	assert_int_equal(payload_decode(c1->payload, &p1, &why), 0);
	assert_int_equal(payload_decode(c2->payload, &p2, &why), 0);
	assert_string_not_equal(p1.nonce, p2.nonce);
	payload_free(&p1);
	payload_free(&p2);

	/* Each project's findings are about its own dir. */
	static const char *const names[] = {"a", "b", "c", "d", "e", "f", "g"};
	assert_int_equal(ruas_report_project_count(rep), 7);
	for (size_t i = 0; i < 7; i++) {
		assert_string_equal(ruas_report_project_name(rep, i), names[i]);
		assert_count(rep, i, i == 6 ? 1 : 0);
	}
	assert_item(rep, 6, 0, RUAS_SEVERITY_FATAL, "work_dir",
		    "ERROR: project \"g\" work_dir \"/srv/denied\" is not accessible to "
		    "user \"t2\".\n");
	assert_true(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

static void test_password_required(void **state)
{
	(void)state;
	const struct script s[] = {
		{"t1", B_EXIT, 0, 0, NULL, NULL, 1, "sudo: a password is required\n", 0, 0, 0, 0}};
	const struct proj ps[] = {{"claude", "t1", "/srv/a", NULL},
				  {"other", "t1", "/srv/b", NULL}};
	ruas_config *cfg = load(ps, 2, NULL);
	struct fake fk;
	fake_init(&fk, s, 1);
	ruas_report *rep = run(cfg, &fk, 0);
	assert_int_equal(fk.ncalls, 1);
	assert_calls_well_formed(&fk, cfg);
	const char *want =
		"ERROR: project \"claude\" requires passwordless sudo to user \"t1\", but "
		"it is not configured.\n"
		"Add a sudoers rule that allows user \"sup\" to run commands as \"t1\" "
		"without a password, for example:\n"
		"  sup ALL=(t1) NOPASSWD: ALL\n"
		"Then restart ruas.\n";
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo", NULL);
	assert_string_equal(ruas_report_item_text(rep, 0, 0), want);
	assert_count(rep, 1, 1);
	assert_item(rep, 1, 0, RUAS_SEVERITY_FATAL, "sudo",
		    "ERROR: project \"other\" requires passwordless sudo to user \"t1\", "
		    "but it is not configured.\n");
	assert_true(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

static void test_sudo_refuses_for_another_reason(void **state)
{
	(void)state;
	const struct script s[] = {{"t1", B_EXIT, 0, 0, NULL, NULL, 1,
				    "sudo: sorry, you must have a tty to run sudo\n", 0, 0, 0,
				    0}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo", "but it is not configured.\n");
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo",
		    "sudo said:\n  sudo: sorry, you must have a tty to run sudo\n");
	done(rep, cfg, &fk);
}

static void test_unknown_user_says_does_not_exist(void **state)
{
	(void)state;
	const struct script s[] = {
		{"t1", B_EXIT, 0, 0, NULL, NULL, 1, "sudo: unknown user t1\n", 0, 0, 0, 0}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_int_equal(fk.ncalls, 1);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo",
		    "ERROR: project \"proj\" requires passwordless sudo to user \"t1\", "
		    "but user \"t1\" does not exist.\n");
	done(rep, cfg, &fk);
}

static void test_user_missing_from_database(void **state)
{
	(void)state;
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("ghost", "/srv/a", NULL, &fk, &cfg);
	assert_int_equal(fk.ncalls, 0); /* no sudo call for a user that is not there */
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo",
		    "but user \"ghost\" does not exist.\n");
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo", "  sup ALL=(ghost) NOPASSWD: ALL\n");
	assert_true(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

static void test_nologin_and_missing_shell(void **state)
{
	(void)state;
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("nol", "/srv/a", NULL, &fk, &cfg);
	assert_int_equal(fk.ncalls, 0);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo",
		    "but its login shell \"/usr/sbin/nologin\" refuses logins, so sudo -i "
		    "cannot run anything as it.\n");
	done(rep, cfg, &fk);

	rep = run_one("falsey", "/srv/a", NULL, &fk, &cfg);
	assert_int_equal(fk.ncalls, 0);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo",
		    "its login shell \"/bin/false\" refuses logins");
	done(rep, cfg, &fk);

	rep = run_one("noshell", "/srv/a", NULL, &fk, &cfg);
	assert_int_equal(fk.ncalls, 0);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo",
		    "but its login shell \"/nonexistent/shell\" does not exist or is not "
		    "executable");
	done(rep, cfg, &fk);
}

static void test_sudo_not_installed(void **state)
{
	(void)state;
	const struct script s[] = {
		{"t1", B_SPAWN_ERRNO, 0, 0, NULL, NULL, 0, NULL, ENOENT, 0, 0, 0}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo",
		    "but sudo is not installed: \"/usr/bin/sudo\" cannot be executed.\n");
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo", "preflight.conf");
	done(rep, cfg, &fk);
}

static void test_helper_not_runnable(void **state)
{
	(void)state;
	const struct script s[] = {
		{"t1", B_EXIT, 0, 0, NULL, NULL, 127,
		 "-bash: line 1: /usr/libexec/ruas/ruas-exec: No such file or directory\n", 0,
		 0, 0, 0}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo",
		    "ERROR: project \"proj\": sudo to user \"t1\" works, but the ruas helper "
		    "\"/usr/libexec/ruas/ruas-exec\" could not be run as that user (exit "
		    "status 127).\n");
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo",
		    "\n  -bash: line 1: /usr/libexec/ruas/ruas-exec: No such file or "
		    "directory\n");
	done(rep, cfg, &fk);
}

static void test_timeout(void **state)
{
	(void)state;
	const struct script s[] = {{"t1", B_TIMEOUT, 0, 0, NULL, "Welcome\n", 0, NULL, 0, 0, 0, 0}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo",
		    "ERROR: project \"proj\": the checks run as user \"t1\" through sudo did "
		    "not finish within ");
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo", "sudo -n -iu t1 -- true");
	done(rep, cfg, &fk);
}

static void test_wrong_nonce_not_trusted(void **state)
{
	(void)state;
	/* A complete report, clean but for another nonce: no report at all. */
	const struct script s[] = {{"t1", B_WRONG_NONCE, 0, 0, NULL, NULL, 0, NULL, 0, 0, 0, 0}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo", "without a report");
	assert_true(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

static void test_forged_block_before_real_report_ignored(void **state)
{
	(void)state;
	/* The forged block claims escalation; the real one (right nonce) does not. */
	const struct script s[] = {
		{"t1", B_FORGED_FIRST, 1, 1, "", NULL, 0, NULL, 0, 0, 0, 1}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 0);
	assert_false(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

static void test_profile_noise_ignored(void **state)
{
	(void)state;
	const struct script s[] = {
		{"t1", B_REPORT, 1, 1, "", "Welcome to t1!\nYou have new mail.\n\n", 0, NULL, 0,
		 0, 0, 1}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 0);
	assert_false(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

static void test_escalation_fatal(void **state)
{
	(void)state;
	const char *list = "User t1 may run the following commands on host:\n"
			   "    (ALL) NOPASSWD: ALL\n";
	const struct script s[] = {{"t1", B_REPORT, 0, 0, list, NULL, 0, NULL, 0, 0, 0, 1}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 1);
	const char *seed =
		"ERROR: target user \"t1\" can run passwordless sudo.\n"
		"The user-spawn sandbox provides no isolation if the spawned agent can "
		"escalate non-interactively.\n"
		"Remove NOPASSWD sudo access for this user before starting ruas with this "
		"project.\n";
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "escalation", NULL);
	const char *text = ruas_report_item_text(rep, 0, 0);
	assert_true(strncmp(text, seed, strlen(seed)) == 0);
	assert_string_equal(text + strlen(seed),
			    "  User t1 may run the following commands on host:\n"
			    "      (ALL) NOPASSWD: ALL\n");
	assert_true(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

/* A narrower NOPASSWD rule is a way up too (it was only a warning once). */
static void test_nopasswd_rule_fatal(void **state)
{
	(void)state;
	const struct script s[] = {{"t1", B_REPORT, 1, 0,
				    "User t1 may run the following commands on host:\n"
				    "    (root) NOPASSWD: /usr/bin/apt\n",
				    NULL, 0, NULL, 0, 0, 0, 1}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "escalation",
		    "ERROR: target user \"t1\" can run commands as another user without a "
		    "password:\n  (root) NOPASSWD: /usr/bin/apt\n");
	assert_true(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

/* target_sudo_allowed, global and per project, turns exactly that command into a warning. */
static void test_sudo_allowed_warning(void **state)
{
	(void)state;
	const struct script s[] = {{"t1", B_REPORT, 1, 0,
				    "User t1 may run the following commands on host:\n"
				    "    (root) NOPASSWD: /usr/bin/systemctl restart app\n",
				    NULL, 0, NULL, 0, 0, 0, 1}};
	const struct proj ps[] = {
		{"global", "t1", "/srv/a", NULL},
		{"own", "t1", "/srv/b", "target_sudo_allowed = [\"/usr/bin/systemctl restart web\", "
					"\"/usr/bin/systemctl restart app\"];"},
	};
	ruas_config *cfg = load(ps, 2, NULL);
	struct fake fk;
	fake_init(&fk, s, 1);
	ruas_report *rep = run(cfg, &fk, 0);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "escalation", "(root) NOPASSWD: /usr/bin/systemctl");
	assert_count(rep, 1, 2);
	assert_item(rep, 1, 0, RUAS_SEVERITY_WARNING, "escalation",
		    "can run \"/usr/bin/systemctl restart app\" as another user without a password, "
		    "which target_sudo_allowed permits");
	/* sudo cannot work in a user namespace: auto keeps the subreaper, and says so. */
	assert_item(rep, 1, 1, RUAS_SEVERITY_WARNING, "lifetime",
		    "lifetime = \"auto\" falls back to the subreaper on the sudo backend, because "
		    "of target_sudo_allowed");
	ruas_report_free(rep);
	ruas_config_free(cfg);
	fake_free(&fk);

	cfg = load(ps, 1, "target_sudo_allowed = [\"/usr/bin/systemctl restart app\"];");
	fake_init(&fk, s, 1);
	rep = run(cfg, &fk, 0);
	assert_count(rep, 0, 2);
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "escalation", "target_sudo_allowed permits");
	assert_item(rep, 0, 1, RUAS_SEVERITY_WARNING, "lifetime", "because of target_sudo_allowed");
	assert_false(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

/* The payload of the one call for user, decoded (payload_free() it). */
static void call_payload(const struct fake *fk, const char *user, struct payload *p)
{
	const struct call *c = call_for(fk, user);
	const char *why = NULL;
	assert_non_null(c);
	if (payload_decode(c->payload, p, &why) != 0)
		fail_msg("payload does not decode: %s", why);
}

/*
 * lifetime: the helper is asked whether the target can make the agent's PID
 * namespace unless the subreaper is in force anyway; its answer, and the
 * subreaper, are findings.
 */
static void test_lifetime_findings(void **state)
{
	(void)state;
	const struct script ok = {"t1", B_REPORT, 1, 1, "", NULL, 0, NULL, 0, 0, 0, 1};
	const struct proj ps[] = {
		{"auto", "t1", "/srv/a", NULL},
		{"pidns", "t1", "/srv/a", "lifetime = \"pidns\";"},
		{"sub", "t1", "/srv/a", "lifetime = \"subreaper\";"},
		{"pidns-sudo", "t1", "/srv/a",
		 "lifetime = \"pidns\"; target_sudo_allowed = [\"/usr/bin/systemctl restart app\"];"},
	};
	struct fake fk;
	struct payload p;

	/* The namespace works: auto and pidns say nothing; the subreaper warns. */
	ruas_config *cfg = load(ps, 3, NULL);
	fake_init(&fk, &ok, 1);
	ruas_report *rep = run(cfg, &fk, 0);
	call_payload(&fk, "t1", &p);
	assert_true(p.check_flags & CHECK_USERNS);
	payload_free(&p);
	assert_count(rep, 0, 0);
	assert_count(rep, 1, 0);
	assert_count(rep, 2, 1);
	assert_item(rep, 2, 0, RUAS_SEVERITY_WARNING, "lifetime",
		    "WARNING: project \"sub\": lifetime = \"subreaper\": ruas-exec, which owns the "
		    "agent's process tree, runs as user \"t1\" like the agent, so the agent can kill "
		    "or stop its own supervision");
	done(rep, cfg, &fk);

	/* It does not: auto falls back (a warning), pidns cannot run (fatal). */
	cfg = load(ps, 3, NULL);
	fake_init(&fk, &ok, 1);
	userns_errno = 1;
	rep = run(cfg, &fk, 0);
	userns_errno = 0;
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "lifetime", "can kill or stop its own supervision");
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "lifetime",
		    "lifetime = \"auto\" falls back to the subreaper: no PID namespace can be made "
		    "for the agent here (it needs unprivileged user namespaces): unshare: Operation "
		    "not permitted.\n");
	assert_count(rep, 1, 1);
	assert_item(rep, 1, 0, RUAS_SEVERITY_FATAL, "lifetime",
		    "ERROR: project \"pidns\": lifetime = \"pidns\", but no PID namespace can be made");
	assert_item(rep, 1, 0, RUAS_SEVERITY_FATAL, "lifetime", "Every run of the project would be refused.");
	assert_count(rep, 2, 1);
	done(rep, cfg, &fk);

	/* A helper that does not answer is no namespace. */
	cfg = load(ps, 1, NULL);
	fake_init(&fk, &ok, 1);
	userns_errno = -1;
	rep = run(cfg, &fk, 0);
	userns_errno = 0;
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "lifetime", "the helper did not say");
	done(rep, cfg, &fk);

	/* Only the subreaper: nothing to probe. */
	cfg = load(&ps[2], 1, NULL);
	fake_init(&fk, &ok, 1);
	rep = run(cfg, &fk, 0);
	call_payload(&fk, "t1", &p);
	assert_false(p.check_flags & CHECK_USERNS);
	payload_free(&p);
	done(rep, cfg, &fk);

	/* lifetime = "pidns" with target_sudo_allowed on the sudo backend: sudo will fail. */
	cfg = load(&ps[3], 1, NULL);
	fake_init(&fk, &ok, 1);
	rep = run(cfg, &fk, 0);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "lifetime",
		    "lifetime = \"pidns\" runs the agent in a user namespace on the sudo backend, "
		    "where sudo, a set-user-ID program, cannot work");
	done(rep, cfg, &fk);

	/* The global key, overridden per project. */
	cfg = load(ps, 2, "lifetime = \"subreaper\";");
	fake_init(&fk, &ok, 1);
	rep = run(cfg, &fk, 0);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "lifetime", "project \"auto\": lifetime = \"subreaper\"");
	assert_count(rep, 1, 0);
	done(rep, cfg, &fk);
}

/* Root reads the rules with sudo -l -U, whatever the target could list; a pty beats requiretty. */
static void test_root_lists_rules(void **state)
{
	(void)state;
	static const struct root_answer answers[] = {
		{"t1", 0,
		 "Matching Defaults entries for t1 on host:\n    listpw=always, requiretty\n\n"
		 "User t1 may run the following commands on host:\n    (root) NOPASSWD: /bin/sh\n",
		 1},
		{"t2", 0, "User t2 is not allowed to run sudo on host.\n", 0},
		{NULL, 0, NULL, 0},
	};
	const struct script s[] = {
		{"t1", B_REPORT, 1, 1, "sudo: a password is required\n", NULL, 0, NULL, 0, 0, 0, 1},
		{"t2", B_REPORT, 1, 1, "sudo: a password is required\n", NULL, 0, NULL, 0, 0, 0, 1}};
	const struct proj ps[] = {{"a", "t1", "/srv/a", NULL}, {"b", "t2", "/srv/b", NULL}};
	ruas_config *cfg = load(ps, 2, NULL);
	struct fake fk;
	fake_init(&fk, s, 2);
	fk.root = answers;
	ruas_report *rep = run(cfg, &fk, 0);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "escalation", "  (root) NOPASSWD: /bin/sh\n");
	assert_count(rep, 1, 0);
	assert_int_equal(fk.root_calls, 3); /* t1 twice: without, then with a pty */
	assert_int_equal(fk.root_pty_calls, 1);
	done(rep, cfg, &fk);
}

/* Without root, a listing that needs a password is a warning that says how to be sure. */
static void test_unlisted_warning(void **state)
{
	(void)state;
	const struct script s[] = {
		{"t1", B_REPORT, 1, 1, "sudo: a password is required\n", NULL, 0, NULL, 0, 0, 0, 1}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "escalation",
		    "WARNING: the sudo rules of target user \"t1\" could not be listed without a "
		    "password");
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "escalation",
		    "ruas-setup check --target t1");
	assert_false(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

/* A listing that cannot be understood is fatal, and shows what sudo said. */
static void test_unreadable_listing_fatal(void **state)
{
	(void)state;
	const struct script s[] = {{"t1", B_REPORT, 1, 0,
				    "User t1 may run the following commands on host:\n"
				    "    something new in sudo 2.0\n",
				    NULL, 0, NULL, 0, 0, 0, 1}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "escalation",
		    "could not be understood (sudo -n -l: a privilege line does not start with (RUNAS))");
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "escalation", "    something new in sudo 2.0\n");
	done(rep, cfg, &fk);
}

static void test_work_dir_denied_and_missing(void **state)
{
	(void)state;
	const struct proj ps[] = {
		{"den", "t1", "/srv/denied", NULL},
		{"mis", "t1", "/srv/missing", NULL},
		{"fine", "t1", "/srv/fine", NULL},
	};
	ruas_config *cfg = load(ps, 3, NULL);
	struct fake fk;
	fake_init(&fk, NULL, 0);
	ruas_report *rep = run(cfg, &fk, 0);
	assert_int_equal(fk.ncalls, 1);
	assert_calls_well_formed(&fk, cfg);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "work_dir",
		    "ERROR: project \"den\" work_dir \"/srv/denied\" is not accessible to "
		    "user \"t1\".\n"
		    "Missing: read and search (rx) permission on \"/srv/denied\" (mode 750 "
		    "owner root).\n");
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "work_dir",
		    "  setfacl -m u:t1:rx /srv/denied\n");
	assert_count(rep, 1, 1);
	assert_item(rep, 1, 0, RUAS_SEVERITY_FATAL, "work_dir",
		    "ERROR: project \"mis\" work_dir \"/srv/missing\" is not accessible to "
		    "user \"t1\".\n"
		    "Missing: \"/srv/missing\" cannot be reached (");
	assert_count(rep, 2, 0);
	assert_true(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

static void test_dir_not_reported(void **state)
{
	(void)state;
	const struct script s[] = {{"t1", B_REPORT, 1, 1, "", NULL, 0, NULL, 0, 0, 1, 1}};
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "work_dir", "did not report on work_dir");
	done(rep, cfg, &fk);
}

static void test_scan_warnings(void **state)
{
	(void)state;
	const struct proj ps[] = {
		{"s3", "t1", "/srv/scan3", NULL},
		{"sall", "t1", "/srv/scanall", NULL},
		{"inc", "t1", "/srv/incomplete", NULL},
	};
	ruas_config *cfg = load(ps, 3, "scan_time_limit = 30;");
	struct fake fk;
	fake_init(&fk, NULL, 0);
	ruas_report *rep = run(cfg, &fk, 0);
	assert_calls_well_formed(&fk, cfg);

	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "scan", NULL);
	assert_string_equal(
		ruas_report_item_text(rep, 0, 0),
		"WARNING: project \"s3\" work_dir \"/srv/scan3\" contains paths that user "
		"\"t1\" may not be able to access cleanly:\n"
		"  /srv/scan3/a secret (not readable, mode 600 owner leigh)\n"
		"  /srv/scan3/b.db (not readable, not writable, mode 600 owner leigh)\n"
		"  /srv/scan3/c (not readable, mode 600 owner leigh)\n"
		"  ... and 16 more\n"
		"\n"
		"The agent may fail with EACCES when accessing these paths. Fix "
		"ownership/permissions, narrow the project scope, or accept the risk if the "
		"inaccessible paths are intentionally out of bounds.\n");

	assert_count(rep, 1, 1);
	assert_item(rep, 1, 0, RUAS_SEVERITY_WARNING, "scan", "  /srv/scanall/b.db (");
	assert_null(strstr(ruas_report_item_text(rep, 1, 0), "... and"));

	assert_count(rep, 2, 1);
	assert_item(rep, 2, 0, RUAS_SEVERITY_WARNING, "scan",
		    "WARNING: project \"inc\" work_dir \"/srv/incomplete\": scan incomplete "
		    "after 12345 entries (time limit of 30 seconds");
	assert_false(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

/*
 * Groups (issue 11 part 3): docker, like every group that gives root by
 * design, is fatal; adm, which reads other people's logs, keeps the warning
 * and its contract text.
 */
static void test_root_group_warning(void **state)
{
	(void)state;
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("admr", "/srv/a", NULL, &fk, &cfg);
	assert_int_equal(fk.ncalls, 1);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "groups",
		    "WARNING: project \"proj\": target user \"admr\" is a member of adm, "
		    "which give root");
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "groups", "\n  adm: its members read");
	assert_false(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);

	/* The group warning also accompanies a failure. */
	const struct script sa[] = {{"admr", B_EXIT, 0, 0, NULL, NULL, 1,
				     "sudo: a password is required\n", 0, 0, 0, 0}};
	rep = run_one("admr", "/srv/a", sa, &fk, &cfg);
	assert_count(rep, 0, 2);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo", "but it is not configured");
	assert_item(rep, 0, 1, RUAS_SEVERITY_WARNING, "groups", "adm");
	done(rep, cfg, &fk);
}

static void test_root_group_fatal(void **state)
{
	(void)state;
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("dockr", "/srv/a", NULL, &fk, &cfg);
	assert_int_equal(fk.ncalls, 1);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "groups",
		    "ERROR: project \"proj\": target user \"dockr\" is a member of docker, "
		    "which give root without a password.\n  docker: its members control the "
		    "Docker daemon");
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "groups", "\n  gpasswd -d dockr docker\n");
	assert_true(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);

	/* The fatal group also accompanies a failure. */
	const struct script s[] = {{"dockr", B_EXIT, 0, 0, NULL, NULL, 1,
				    "sudo: a password is required\n", 0, 0, 0, 0}};
	rep = run_one("dockr", "/srv/a", s, &fk, &cfg);
	assert_count(rep, 0, 2);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo", "but it is not configured");
	assert_item(rep, 0, 1, RUAS_SEVERITY_FATAL, "groups", "docker");
	done(rep, cfg, &fk);

	/* Primary group gid 0 and kmem: one error naming both, with both fixes. */
	rep = run_one("rootg", "/srv/a", NULL, &fk, &cfg);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "groups",
		    "target user \"rootg\" is a member of root (gid 0), kmem, which give root "
		    "without a password.\n  root (gid 0), its primary group: gid 0 is root's");
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "groups", "\n  kmem: its members read kernel");
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "groups", "\n  usermod -g rootg rootg ");
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "groups", "\n  gpasswd -d rootg kmem\n");
	done(rep, cfg, &fk);
}

/*
 * What outlives a run: one "lifetime" warning per user, the same text on each
 * of its projects (so ruas check prints it once); none for a clean user, nor
 * for a user that does not exist.
 */
static void test_lifetime_per_user(void **state)
{
	(void)state;
	char root[] = "/tmp/ruas-preflight-fs.XXXXXX", path[128];
	assert_non_null(mkdtemp(root));
	static const char *const dirs[] = {"/var", "/var/lib", "/var/lib/systemd",
					   "/var/lib/systemd/linger", "/usr", "/usr/bin", "/etc"};
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		snprintf(path, sizeof path, "%s%s", root, dirs[i]);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	static const char *const files[][2] = {{"/var/lib/systemd/linger/t1", ""},
					       {"/var/lib/systemd/linger/ghost", ""},
					       {"/usr/bin/at", ""},
					       {"/etc/at.deny", "t2\n"}};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		snprintf(path, sizeof path, "%s%s", root, files[i][0]);
		write_file(path, files[i][1], 0644);
	}
	const struct proj ps[] = {
		{"a", "t1", "/srv/a", NULL},
		{"b", "t2", "/srv/b", NULL},
		{"c", "t1", "/srv/c", NULL},
		{"g", "ghost", "/srv/g", NULL},
	};
	ruas_config *cfg = load(ps, 4, NULL);
	struct fake fk;
	fake_init(&fk, NULL, 0);
	fk.fs_root = root;
	ruas_report *rep = run(cfg, &fk, 0);
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "lifetime",
		    "WARNING: target user \"t1\" can hand processes to something that outlives a "
		    "run:\n  lingering is enabled (/var/lib/systemd/linger/t1): ");
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "lifetime",
		    "\n  it may use at: /etc/at.deny does not name it.\n");
	assert_item(rep, 0, 0, RUAS_SEVERITY_WARNING, "lifetime", "\n  loginctl disable-linger t1\n");
	assert_count(rep, 2, 1);
	assert_string_equal(ruas_report_item_text(rep, 0, 0), ruas_report_item_text(rep, 2, 0));
	assert_string_equal(ruas_report_item_check(rep, 2, 0), "lifetime");
	/* t2 is on at.deny, and nothing else holds its processes. */
	assert_count(rep, 1, 0);
	assert_count(rep, 3, 1);
	assert_item(rep, 3, 0, RUAS_SEVERITY_FATAL, "sudo", "does not exist");
	assert_true(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
	rm_rf(root);
}

static void test_items_in_order(void **state)
{
	(void)state;
	/* One user with escalation, projects in several states. */
	const struct script s[] = {{"t1", B_REPORT, 0, 0, "User t1 may run ALL\n", NULL, 0,
				    NULL, 0, 0, 0, 1},
				   {"t2", B_EXIT, 0, 0, NULL, NULL, 1,
				    "sudo: a password is required\n", 0, 0, 0, 0}};
	const struct proj ps[] = {
		{"z-first", "t2", "/srv/z", NULL},
		{"den", "t1", "/srv/denied", NULL},
		{"leg", NULL, "/srv/l", NULL},
		{"s3", "t1", "/srv/scan3", NULL},
		{"dock", "dockr", "/srv/incomplete", NULL},
	};
	ruas_config *cfg = load(ps, 5, NULL);
	struct fake fk;
	fake_init(&fk, s, 2);
	ruas_report *rep = run(cfg, &fk, 0);
	assert_int_equal(fk.ncalls, 3);
	assert_calls_well_formed(&fk, cfg);
	static const char *const names[] = {"z-first", "den", "leg", "s3", "dock"};
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(ruas_report_project_name(rep, i), names[i]);

	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "sudo", "project \"z-first\"");

	assert_count(rep, 1, 2);
	assert_item(rep, 1, 0, RUAS_SEVERITY_FATAL, "escalation", "target user \"t1\"");
	assert_item(rep, 1, 1, RUAS_SEVERITY_FATAL, "work_dir", "project \"den\"");

	assert_count(rep, 2, 0);

	assert_count(rep, 3, 2);
	assert_item(rep, 3, 0, RUAS_SEVERITY_FATAL, "escalation", "target user \"t1\"");
	assert_item(rep, 3, 1, RUAS_SEVERITY_WARNING, "scan", "... and 16 more");

	assert_count(rep, 4, 2);
	assert_item(rep, 4, 0, RUAS_SEVERITY_WARNING, "scan", "scan incomplete after 12345");
	assert_item(rep, 4, 1, RUAS_SEVERITY_FATAL, "groups", "docker");

	/* Out-of-range accessors are harmless. */
	assert_int_equal(ruas_report_item_count(rep, 99), 0);
	assert_null(ruas_report_project_name(rep, 99));
	assert_null(ruas_report_item_text(rep, 0, 99));
	assert_null(ruas_report_item_check(rep, 99, 0));
	assert_true(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
}

/* `anchor HEX(path) w self ID 666 HEX(root) HEX(root) 0 HEX(path)` */
static void anchor_record(struct buf *b, const char *path, const char *id)
{
	buf_adds(b, "anchor ");
	add_hex(b, path);
	buf_printf(b, " w self %s 666 ", id);
	add_hex(b, "root");
	buf_addc(b, ' ');
	add_hex(b, "root");
	buf_adds(b, " 0 ");
	add_hex(b, path);
	buf_addc(b, '\n');
}

static void test_anchors_fatal_per_project(void **state)
{
	(void)state;
	struct buf lines = BUF_INIT;
	anchor_record(&lines, "/etc/passwd", "users");
	anchor_record(&lines, "/etc/cron.d", "cron");
	const struct anchor_script as[] = {{"t1", lines.data, 0}};
	anchor_scripts = as;
	nanchor_scripts = 1;
	const struct script s[] = {{"t1", B_REPORT, 1, 1, "", NULL, 0, NULL, 0, 0, 0, 1}};
	const struct proj ps[] = {{"a", "t1", "/srv/a", NULL}, {"b", "t1", "/srv/b", NULL},
				  {"c", "t2", "/srv/c", NULL}};
	ruas_config *cfg = load(ps, 3, NULL);
	struct fake fk;
	fake_init(&fk, s, 1);
	ruas_report *rep = run(cfg, &fk, 0);
	anchor_scripts = NULL;
	nanchor_scripts = 0;
	assert_int_equal(fk.ncalls, 2);
	for (size_t p = 0; p < 2; p++) {
		assert_count(rep, p, 2);
		assert_item(rep, p, 0, RUAS_SEVERITY_FATAL, "anchors",
			    "ERROR: target user \"t1\" can write \"/etc/passwd\", which root runs "
			    "or trusts: the user and group database");
		assert_item(rep, p, 0, RUAS_SEVERITY_FATAL, "anchors",
			    "\nFix: chmod go-w /etc/passwd. Then restart ruas.\n");
		assert_item(rep, p, 1, RUAS_SEVERITY_FATAL, "anchors",
			    "can write \"/etc/cron.d\", which root runs or trusts: cron runs");
	}
	assert_count(rep, 2, 0);
	assert_true(ruas_report_has_fatal(rep));
	done(rep, cfg, &fk);
	buf_free(&lines);
}

static void test_anchors_truncated_and_missing(void **state)
{
	(void)state;
	struct buf lines = BUF_INIT;
	for (unsigned int i = 0; i < ANCHOR_REPORT_CAP; i++)
		anchor_record(&lines, "/etc/passwd", "users");
	const struct anchor_script as[] = {{"t1", lines.data, 70}, {"t2", NULL, -1}};
	anchor_scripts = as;
	nanchor_scripts = 2;
	const struct script s[] = {{"t1", B_REPORT, 1, 1, "", NULL, 0, NULL, 0, 0, 0, 1},
				   {"t2", B_REPORT, 1, 1, "", NULL, 0, NULL, 0, 0, 0, 1}};
	const struct proj ps[] = {{"a", "t1", "/srv/a", NULL}, {"b", "t2", "/srv/b", NULL}};
	ruas_config *cfg = load(ps, 2, NULL);
	struct fake fk;
	fake_init(&fk, s, 2);
	ruas_report *rep = run(cfg, &fk, 0);
	anchor_scripts = NULL;
	nanchor_scripts = 0;
	/* 64 listed, then the count of the rest. */
	assert_count(rep, 0, ANCHOR_REPORT_CAP + 1);
	assert_item(rep, 0, ANCHOR_REPORT_CAP, RUAS_SEVERITY_FATAL, "anchors",
		    "ERROR: target user \"t1\" can write 6 more paths");
	/* No summary: the report is malformed, which is fatal. */
	assert_count(rep, 1, 1);
	assert_item(rep, 1, 0, RUAS_SEVERITY_FATAL, "sudo", "malformed report");
	done(rep, cfg, &fk);
	buf_free(&lines);
}

/* The library sends what only it knows: here, the supervisor's home. */
static void test_anchors_known_in_payload(void **state)
{
	(void)state;
	struct fake fk;
	ruas_config *cfg;
	ruas_report *rep = run_one("t1", "/srv/a", NULL, &fk, &cfg);
	assert_count(rep, 0, 0);
	const struct call *c = call_for(&fk, "t1");
	assert_non_null(c);
	struct payload p;
	const char *why = NULL;
	assert_int_equal(payload_decode(c->payload, &p, &why), 0);
	int home = 0, helper = 0;
	for (size_t i = 0; i < p.nanchors; i++) {
		home |= strcmp(p.anchors[i], "supervisor-home /home/sup") == 0;
		helper |= strcmp(p.anchors[i], "helper " HELPER) == 0;
	}
	if (!home || !helper)
		fail_msg("payload anchors lack the supervisor's home or the helper (%zu sent)",
			 p.nanchors);
	payload_free(&p);
	done(rep, cfg, &fk);
}

/* ruas-setup check and install: a target alone gets the same finding. */
static void test_anchors_for_targets(void **state)
{
	(void)state;
	struct buf lines = BUF_INIT;
	anchor_record(&lines, "/etc/sudoers.d", "sudoers");
	const struct anchor_script as[] = {{"t1", lines.data, 0}};
	anchor_scripts = as;
	nanchor_scripts = 1;
	const struct script s[] = {{"t1", B_REPORT, 1, 1, "", NULL, 0, NULL, 0, 0, 0, 1}};
	struct fake fk;
	fake_init(&fk, s, 1);
	struct runner rn = {fake_run, &fk, 0, NULL};
	const char *const targets[] = {"t1", "t2", NULL};
	ruas_target_options o = RUAS_TARGET_OPTIONS_INIT;
	o.sudo = SUDO;
	o.helper = HELPER;
	ruas_report *rep = NULL;
	ruas_error *err = NULL;
	if (targets_run(&rep, targets, &o, &rn, &err) != 0)
		fail_msg("targets_run failed: %s", ruas_error_message(err));
	anchor_scripts = NULL;
	nanchor_scripts = 0;
	assert_count(rep, 0, 1);
	assert_item(rep, 0, 0, RUAS_SEVERITY_FATAL, "anchors",
		    "ERROR: target user \"t1\" can write \"/etc/sudoers.d\", which root runs "
		    "or trusts: sudo's rules");
	assert_count(rep, 1, 0);
	ruas_report_free(rep);
	fake_free(&fk);
	buf_free(&lines);
}

static void run_parallel(unsigned int max_parallel, unsigned int sleep_ms,
			 long long *elapsed, int *peak)
{
	static const char *const users[] = {"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"};
	struct script s[8];
	struct proj ps[8];
	char names[8][8];
	for (size_t i = 0; i < 8; i++) {
		memset(&s[i], 0, sizeof s[i]);
		s[i].user = users[i];
		s[i].b = B_REPORT;
		s[i].true_rc = s[i].list_rc = 1;
		s[i].esc_set = 1;
		s[i].sleep_ms = sleep_ms;
		snprintf(names[i], sizeof names[i], "q%zu", i + 1);
		ps[i] = (struct proj){names[i], users[i], "/srv/x", NULL};
	}
	ruas_config *cfg = load(ps, 8, NULL);
	struct fake fk;
	fake_init(&fk, s, 8);
	long long t0 = now_ms();
	ruas_report *rep = run(cfg, &fk, max_parallel);
	*elapsed = now_ms() - t0;
	*peak = fk.peak;
	assert_int_equal(fk.ncalls, 8);
	assert_calls_well_formed(&fk, cfg);
	for (size_t i = 0; i < 8; i++) {
		assert_non_null(call_for(&fk, users[i]));
		assert_count(rep, i, 0);
	}
	done(rep, cfg, &fk);
}

static void test_concurrency(void **state)
{
	(void)state;
	long long elapsed;
	int peak;
	/* 8 users, 200 ms each, 4 at a time: two rounds, not eight. */
	run_parallel(4, 200, &elapsed, &peak);
	print_message("max_parallel 4: %lld ms, peak %d concurrent calls\n", elapsed, peak);
	if (elapsed >= 1200)
		fail_msg("preflight of 8 users x 200 ms took %lld ms with max_parallel 4: "
			 "the checks did not run concurrently",
			 elapsed);
	assert_true(peak >= 2);
	assert_true(peak <= 4);

	/* max_parallel 1: strictly one at a time. */
	run_parallel(1, 30, &elapsed, &peak);
	assert_int_equal(peak, 1);
	assert_true(elapsed >= 8 * 30);

	/* 0: the default (8). */
	run_parallel(0, 100, &elapsed, &peak);
	assert_true(peak <= (int)DEFAULT_MAX_PARALLEL);
	assert_true(elapsed < 700);
}

int main(int argc, char **argv)
{
	nss_env_reexec(argc, argv, passwd_lines, group_lines);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fake_user_database_active),
		cmocka_unit_test(test_config_refuses_uid0_and_supervisor),
		cmocka_unit_test(test_all_ok_and_legacy_skipped),
		cmocka_unit_test(test_only_legacy_makes_no_call),
		cmocka_unit_test(test_one_call_per_user),
		cmocka_unit_test(test_password_required),
		cmocka_unit_test(test_sudo_refuses_for_another_reason),
		cmocka_unit_test(test_unknown_user_says_does_not_exist),
		cmocka_unit_test(test_user_missing_from_database),
		cmocka_unit_test(test_nologin_and_missing_shell),
		cmocka_unit_test(test_sudo_not_installed),
		cmocka_unit_test(test_helper_not_runnable),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_wrong_nonce_not_trusted),
		cmocka_unit_test(test_forged_block_before_real_report_ignored),
		cmocka_unit_test(test_profile_noise_ignored),
		cmocka_unit_test(test_escalation_fatal),
		cmocka_unit_test(test_nopasswd_rule_fatal),
		cmocka_unit_test(test_sudo_allowed_warning),
		cmocka_unit_test(test_lifetime_findings),
		cmocka_unit_test(test_root_lists_rules),
		cmocka_unit_test(test_unlisted_warning),
		cmocka_unit_test(test_unreadable_listing_fatal),
		cmocka_unit_test(test_work_dir_denied_and_missing),
		cmocka_unit_test(test_dir_not_reported),
		cmocka_unit_test(test_scan_warnings),
		cmocka_unit_test(test_root_group_warning),
		cmocka_unit_test(test_root_group_fatal),
		cmocka_unit_test(test_items_in_order),
		cmocka_unit_test(test_lifetime_per_user),
		cmocka_unit_test(test_concurrency),
		cmocka_unit_test(test_anchors_fatal_per_project),
		cmocka_unit_test(test_anchors_truncated_and_missing),
		cmocka_unit_test(test_anchors_known_in_payload),
		cmocka_unit_test(test_anchors_for_targets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
