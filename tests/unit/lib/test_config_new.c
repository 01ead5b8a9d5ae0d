/* SPDX-License-Identifier: ISC */
/*
 * test_config_new.c - configurations built in code (ruas_config_new,
 * ruas_config_add_project): every refusal the file loader has for a value
 * comes with the same message, only without "FILE:LINE: "; accepted values
 * are stored byte for byte and equal what the file gives; the caller's
 * strings are copied; and a built configuration preflights, spawns and
 * audits as a loaded one does.
 *
 * Each case is written once, as a spec. The test also writes it as
 * ruas.conf text (every byte but letters and digits as \xNN, which libconfig
 * decodes exactly) and loads that, so that both paths judge the same bytes.
 * A fake user database (nss_env.h) has the accounts that uid 0 and the
 * supervisor's uid need; the supervisor is "sup", uid 1500.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "channel.h"
#include "check/preflight.h"
#include "check/runner.h"
#include "config/config_int.h"
#include "env_rules.h"
#include "fixture.h"
#include "nss_env.h"
#include "payload.h"
#include "people/deny.h"
#include "people/deny_files.h"
#include "ruas.h"
#include "spawn/exec_payload.h"
#include "helper_report.h"
#include "helper_report_write.h"
#include "private_state.h"

/* The tables override the defaults of SPEC() and GLOBALS() field by field. */
#pragma GCC diagnostic ignored "-Woverride-init"

#define NAME "same.conf"
#define SUPERVISOR_UID 1500

static const char passwd_lines[] =
	"root:x:0:0:root:/root:/bin/sh\n"
	"sup:x:1500:1500:supervisor:/home/sup:/bin/sh\n"
	"t1:x:1501:1501::/home/t1:/bin/sh\n"
	"t2:x:1502:1502::/home/t2:/bin/sh\n"
	"zero:x:0:0:not named root:/home/zero:/bin/sh\n"
	"supalias:x:1500:1500:same uid as sup:/home/sup:/bin/sh\n";
static const char group_lines[] = "root:x:0:\nsup:x:1500:\nt1:x:1501:\nt2:x:1502:\n";

/* A people block for the cases that name a person. */
static const char people_text[] =
	"people = { worktrees = \"/srv/wt\"; credentials = \"/srv/cred\";\n"
	"  members = ( { id = \"alice\"; run_as_user = \"t1\"; },\n"
	"              { id = \"bob\"; run_as_user = \"t2\"; } ); };\n";

#define EMPTY ((const char *const[]){NULL})
#define L(...) ((const char *const[]){__VA_ARGS__, NULL})
static const char *const agent_cmd[] = {"agent", NULL};
#define SPEC(...)                                                                        \
	{RUAS_PROJECT_SPEC_VERSION, .name = "p", .work_dir = "/srv/p", .command = agent_cmd, \
	 .terminate_grace = RUAS_UNSET, .open_files_max = RUAS_UNSET,                      \
	 .core_dumps = RUAS_UNSET, .wall_time_max = RUAS_UNSET, .tasks_max = RUAS_UNSET,     \
	 .require_command = RUAS_UNSET, __VA_ARGS__}
#define GLOBALS(...)                                                                     \
	{RUAS_CONFIG_GLOBALS_VERSION, .scan_time_limit = RUAS_UNSET,                       \
	 .terminate_grace = RUAS_UNSET, .audit_argv_max = RUAS_UNSET,                      \
	 .host_check_interval = RUAS_UNSET, .open_files_max = RUAS_UNSET,                  \
	 .core_dumps = RUAS_UNSET, .wall_time_max = RUAS_UNSET, .tasks_max = RUAS_UNSET,     \
	 .require_command = RUAS_UNSET, __VA_ARGS__}

#define A8 "aaaaaaaa"
#define A128 A8 A8 A8 A8 A8 A8 A8 A8 A8 A8 A8 A8 A8 A8 A8 A8
/* The injection of issue 13, for a generator that does not escape. */
#define INJECTION "x\"; run_as_user = \"agent2\"; } ); #"

/* ------------------------------------------------------------ writing text */

/* A libconfig string holding exactly s. */
static void put_quoted(struct buf *b, const char *s)
{
	buf_addc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
			buf_addc(b, (char)*p);
		else
			buf_printf(b, "\\x%02x", *p);
	buf_addc(b, '"');
}

static void put_str(struct buf *b, const char *key, const char *v)
{
	if (!v)
		return;
	buf_printf(b, "  %s = ", key);
	put_quoted(b, v);
	buf_adds(b, ";\n");
}

static void put_list(struct buf *b, const char *key, const char *const *v)
{
	if (!v)
		return;
	buf_printf(b, "  %s = [", key);
	for (const char *const *e = v; *e; e++) {
		buf_adds(b, e == v ? "" : ", ");
		put_quoted(b, *e);
	}
	buf_adds(b, "];\n");
}

static void put_int(struct buf *b, const char *key, int v)
{
	if (v != RUAS_UNSET)
		buf_printf(b, "  %s = %d;\n", key, v);
}

static void put_bool(struct buf *b, const char *key, int v)
{
	if (v != RUAS_UNSET)
		buf_printf(b, "  %s = %s;\n", key, v ? "true" : "false");
}

/* The limits, as a file writes them (the sizes and cpu_max as their strings). */
struct limit_keys {
	int open_files;
	const char *file_size;
	int core, wall;
	const char *memory, *memory_swap;
	int tasks;
	const char *cpu;
};

static void put_limits(struct buf *b, const struct limit_keys *k)
{
	put_int(b, "open_files_max", k->open_files);
	put_str(b, "file_size_max", k->file_size);
	put_bool(b, "core_dumps", k->core);
	put_int(b, "wall_time_max", k->wall);
	put_str(b, "memory_max", k->memory);
	put_str(b, "memory_swap_max", k->memory_swap);
	put_int(b, "tasks_max", k->tasks);
	put_str(b, "cpu_max", k->cpu);
}

static void spec_text(struct buf *b, const ruas_project_spec *sp)
{
	buf_adds(b, "{\n");
	put_str(b, "name", sp->name);
	put_str(b, "work_dir", sp->work_dir);
	put_list(b, "command", sp->command);
	put_str(b, "run_as_user", sp->run_as_user);
	put_list(b, "env_allowlist", sp->env_allowlist);
	put_str(b, "person", sp->person);
	put_list(b, "deny_settings_args", sp->deny_settings_args);
	put_list(b, "scan_prune", sp->scan_prune);
	put_list(b, "target_sudo_allowed", sp->target_sudo_allowed);
	put_str(b, "backend", sp->backend);
	put_str(b, "pam_service", sp->pam_service);
	put_int(b, "terminate_grace", sp->terminate_grace);
	const struct limit_keys k = {sp->open_files_max, sp->file_size_max, sp->core_dumps,
				     sp->wall_time_max,	 sp->memory_max,    sp->memory_swap_max,
				     sp->tasks_max,	 sp->cpu_max};
	put_limits(b, &k);
	put_bool(b, "require_command", sp->require_command);
	buf_adds(b, "}");
}

static void globals_text(struct buf *b, const ruas_config_globals *g)
{
	if (!g)
		return;
	put_list(b, "env_allowlist", g->env_allowlist);
	put_str(b, "sudo", g->sudo);
	put_str(b, "helper", g->helper);
	put_str(b, "session_helper", g->session_helper);
	put_list(b, "scan_prune", g->scan_prune);
	put_int(b, "scan_time_limit", g->scan_time_limit);
	put_str(b, "backend", g->backend);
	put_str(b, "pam_service", g->pam_service);
	put_int(b, "terminate_grace", g->terminate_grace);
	put_list(b, "target_sudo_allowed", g->target_sudo_allowed);
	put_str(b, "audit_facility", g->audit_facility);
	put_str(b, "audit_log", g->audit_log);
	put_str(b, "audit_argv", g->audit_argv);
	put_int(b, "audit_argv_max", g->audit_argv_max);
	const struct limit_keys k = {g->open_files_max, g->file_size_max, g->core_dumps,
				     g->wall_time_max,	g->memory_max,	  g->memory_swap_max,
				     g->tasks_max,	g->cpu_max};
	put_limits(b, &k);
	put_str(b, "cgroup_parent", g->cgroup_parent);
	put_bool(b, "require_command", g->require_command);
}

/* ------------------------------------------------------------- two paths */

struct got {
	int r;
	ruas_config *cfg;
	ruas_error *err;
};

static void got_free(struct got *o)
{
	ruas_config_free(o->cfg);
	ruas_error_free(o->err);
	memset(o, 0, sizeof *o);
}

static ruas_config_options options(void)
{
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	o.supervisor_uid = SUPERVISOR_UID;
	return o;
}

static struct got load_text(const char *text)
{
	ruas_config_options o = options();
	struct got out = {0, NULL, NULL};
	out.r = ruas_config_load_buffer(&out.cfg, text, strlen(text), NAME, &o, &out.err);
	return out;
}

static void projects_text(struct buf *b, const ruas_project_spec *specs, size_t n)
{
	buf_adds(b, "projects = (\n");
	for (size_t i = 0; i < n; i++) {
		buf_adds(b, i ? ",\n" : "");
		spec_text(b, &specs[i]);
	}
	buf_adds(b, "\n);\n");
}

/* The specs as the text of one file (with the people block when `people`). */
static struct got by_file(const ruas_config_globals *g, const ruas_project_spec *specs,
			      size_t n, int people)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, people ? people_text : "");
	globals_text(&b, g);
	projects_text(&b, specs, n);
	assert_false(b.oom);
	struct got out = load_text(b.data);
	buf_free(&b);
	return out;
}

/* Adds each spec to o->cfg while o->r is 0. */
static void add_specs(struct got *o, const ruas_project_spec *specs, size_t n)
{
	for (size_t i = 0; o->r == 0 && i < n; i++) {
		size_t before = ruas_config_project_count(o->cfg);
		o->r = ruas_config_add_project(o->cfg, &specs[i], &o->err);
		/* A refusal leaves the configuration as it was. */
		if (o->r != 0)
			assert_int_equal(ruas_config_project_count(o->cfg), before);
	}
}

/*
 * The same through the API: ruas_config_new(g), or with `people` a file
 * of just the people block (and g), then each spec added.
 */
static struct got by_code(const ruas_config_globals *g, const ruas_project_spec *specs,
			      size_t n, int people)
{
	struct got out = {0, NULL, NULL};
	if (people) {
		struct buf b = BUF_INIT;
		buf_adds(&b, people_text);
		globals_text(&b, g);
		buf_adds(&b, "projects = ();\n");
		out = load_text(b.data);
		buf_free(&b);
		if (out.r != 0)
			fail_msg("base refused: %s", ruas_error_message(out.err));
	} else {
		ruas_config_options o = options();
		ruas_config_globals named = RUAS_CONFIG_GLOBALS_INIT;
		if (g)
			named = *g;
		named.name = NAME;
		out.r = ruas_config_new(&out.cfg, &named, &o, &out.err);
	}
	add_specs(&out, specs, n);
	return out;
}

static void assert_one_line(const char *msg)
{
	for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			fail_msg("message holds control byte 0x%02x: %s", *p, msg);
}

/* The file's message without "same.conf[:LINE]: ". */
static const char *without_place(const char *msg)
{
	if (strncmp(msg, NAME ":", strlen(NAME ":")) != 0)
		fail_msg("file message does not start with " NAME ": %s", msg);
	const char *p = msg + strlen(NAME ":");
	p += strspn(p, "0123456789");
	if (*p == ':')
		p++;
	if (*p != ' ')
		fail_msg("file message has no place prefix: %s", msg);
	return p + 1;
}

/* Both refused, RUAS_ERR_CONFIG, with the same message but for the place. */
static void assert_same_refusal(const char *what, struct got *f, struct got *c,
				const char *reason)
{
	if (f->r != RUAS_ERR_CONFIG || c->r != RUAS_ERR_CONFIG)
		fail_msg("%s: file %d (%s), code %d (%s); expected both refused", what, f->r,
			 ruas_error_message(f->err), c->r, ruas_error_message(c->err));
	const char *fm = without_place(ruas_error_message(f->err));
	const char *cm = ruas_error_message(c->err);
	if (strcmp(fm, cm) != 0)
		fail_msg("%s: the messages differ:\n file: %s\n code: %s", what, fm, cm);
	if (!strstr(cm, reason))
		fail_msg("%s: message lacks \"%s\": %s", what, reason, cm);
	assert_int_equal(ruas_error_code(c->err), RUAS_ERR_CONFIG);
	assert_null(ruas_error_file(c->err));
	assert_int_equal(ruas_error_line(c->err), 0);
	assert_one_line(cm);
}

/* ------------------------------------------------------- project refusals */

struct pcase {
	const char *reason;
	ruas_project_spec spec;
	int people;
};

static const struct pcase pcases[] = {
	{"a project has no \"name\"", SPEC(.name = NULL), 0},
	{"is invalid; use letters", SPEC(.name = ""), 0},
	{"is invalid", SPEC(.name = "-p"), 0},
	{"is invalid", SPEC(.name = INJECTION), 0},
	{"is invalid", SPEC(.name = "a\"b"), 0},
	{"is invalid", SPEC(.name = "a\nb"), 0},
	{"is invalid", SPEC(.name = "$HOME"), 0},
	{"is invalid", SPEC(.name = "a b"), 0},
	{"is invalid", SPEC(.name = "\x1b[2J"), 0},
	{"is invalid", SPEC(.name = A128 "a"), 0},
	{"missing key \"work_dir\"", SPEC(.work_dir = NULL), 0},
	{"work_dir must be an absolute path", SPEC(.work_dir = "srv/p"), 0},
	{"work_dir must be an absolute path", SPEC(.work_dir = ""), 0},
	{"work_dir must be an absolute path", SPEC(.work_dir = INJECTION), 0},
	{"missing key \"command\"", SPEC(.command = NULL), 0},
	{"command must be a non-empty list", SPEC(.command = EMPTY), 0},
	{"command must be a non-empty list", SPEC(.command = L("")), 0},
	{"command must be a non-empty list", SPEC(.command = L("", "x")), 0},
	{"is root", SPEC(.run_as_user = "root"), 0},
	{"has uid 0", SPEC(.run_as_user = "zero"), 0},
	{"is the supervisor itself", SPEC(.run_as_user = "sup"), 0},
	{"has the supervisor's uid 1500", SPEC(.run_as_user = "supalias"), 0},
	{"must start with a lower-case letter", SPEC(.run_as_user = "ALL"), 0},
	{"must start with a lower-case letter", SPEC(.run_as_user = "#0"), 0},
	{"must start with a lower-case letter", SPEC(.run_as_user = "%grp"), 0},
	{"must start with a lower-case letter", SPEC(.run_as_user = "Bob"), 0},
	{"may contain only", SPEC(.run_as_user = "a,b"), 0},
	{"may contain only", SPEC(.run_as_user = "a\nERROR: x"), 0},
	{"longer than 32 bytes", SPEC(.run_as_user = INJECTION + 1), 0},
	{"may contain only", SPEC(.run_as_user = "x\"; a = b"), 0},
	{"is empty", SPEC(.run_as_user = ""), 0},
	{"longer than 32 bytes", SPEC(.run_as_user = "abcdefghijklmnopqrstuvwxyz0123456"), 0},
	{"\"(there is no people block)\" is not a member", SPEC(.person = "alice"), 0},
	{"is not a member of the people block", SPEC(.person = "mallory"), 1},
	{"is not a member of the people block", SPEC(.person = "a\nb\"c"), 1},
	{"differs from person \"alice\"'s run_as_user \"t1\"",
	 SPEC(.person = "alice", .run_as_user = "t2"), 1},
	{"differs from person", SPEC(.person = "alice", .run_as_user = INJECTION), 1},
	{"deny_settings_args needs a person", SPEC(.deny_settings_args = L("--settings", "{file}")),
	 0},
	{"not a variable name", SPEC(.env_allowlist = L("LANG", "")), 0},
	{"not a variable name", SPEC(.env_allowlist = L("A=B")), 0},
	{"not a variable name", SPEC(.env_allowlist = L("A\nB")), 0},
	{"not a variable name", SPEC(.env_allowlist = L(INJECTION)), 0},
	{"plain file name", SPEC(.scan_prune = L("a/b")), 0},
	{"plain file name", SPEC(.scan_prune = L("..")), 0},
	{"plain file name", SPEC(.scan_prune = L("ok", ".")), 0},
	{"plain file name", SPEC(.scan_prune = L("")), 0},
	{"names ALL", SPEC(.target_sudo_allowed = L("ALL")), 0},
	{"is empty", SPEC(.target_sudo_allowed = L("")), 0},
	{"contains a control character", SPEC(.target_sudo_allowed = L("/bin/x\n ALL")), 0},
	{"contains a wildcard", SPEC(.target_sudo_allowed = L("/usr/bin/* x")), 0},
	{"must be an absolute command path", SPEC(.target_sudo_allowed = L("systemctl x")), 0},
	{"names a directory", SPEC(.target_sudo_allowed = L("/usr/bin/ x")), 0},
	{"has no arguments", SPEC(.target_sudo_allowed = L("/usr/bin/systemctl")), 0},
	{"backend must be \"sudo\", \"pam\" or \"auto\"", SPEC(.backend = ""), 0},
	{"backend must be", SPEC(.backend = "SUDO"), 0},
	{"backend must be", SPEC(.backend = INJECTION), 0},
	{"must be a PAM service name", SPEC(.pam_service = ""), 0},
	{"must be a PAM service name", SPEC(.pam_service = "a/b"), 0},
	{"must be a PAM service name", SPEC(.pam_service = ".x"), 0},
	{"must be a PAM service name", SPEC(.pam_service = "a b"), 0},
	{"must be a PAM service name", SPEC(.pam_service = A8 A8 A8 A8 A8 A8 A8 A8 "a"), 0},
	{"terminate_grace must be between 0 and 3600", SPEC(.terminate_grace = -2), 0},
	{"terminate_grace must be between 0 and 3600", SPEC(.terminate_grace = 3601), 0},
	{"terminate_grace must be between 0 and 3600", SPEC(.terminate_grace = INT_MIN), 0},
	{"terminate_grace must be between 0 and 3600", SPEC(.terminate_grace = INT_MAX), 0},
	{"open_files_max needs run_as_user", SPEC(.open_files_max = 64), 0},
	{"file_size_max needs run_as_user", SPEC(.file_size_max = "1M"), 0},
	{"wall_time_max needs run_as_user", SPEC(.wall_time_max = 60), 0},
	{"open_files_max must be between 16 and 1048576", SPEC(.open_files_max = 0), 0},
	{"open_files_max must be between 16 and 1048576", SPEC(.open_files_max = 15), 0},
	{"open_files_max must be between 16 and 1048576", SPEC(.open_files_max = 1048577), 0},
	{"open_files_max must be between 16 and 1048576", SPEC(.open_files_max = INT_MIN), 0},
	{"file_size_max must be a number of bytes", SPEC(.file_size_max = "0"), 0},
	{"file_size_max must be a number of bytes", SPEC(.file_size_max = ""), 0},
	{"file_size_max must be a number of bytes", SPEC(.file_size_max = "64X"), 0},
	{"file_size_max must be a number of bytes", SPEC(.file_size_max = "64MB"), 0},
	{"file_size_max must be a number of bytes", SPEC(.file_size_max = "-1"), 0},
	{"file_size_max must be a number of bytes", SPEC(.file_size_max = " 64M"), 0},
	{"file_size_max must be a number of bytes", SPEC(.file_size_max = "64 M"), 0},
	{"file_size_max must be a number of bytes", SPEC(.file_size_max = "4194305T"), 0},
	{"file_size_max must be a number of bytes", SPEC(.file_size_max = "99999999999999999999"), 0},
	{"file_size_max must be a number of bytes", SPEC(.file_size_max = INJECTION), 0},
	{"wall_time_max must be between 0 (none) and 31536000", SPEC(.wall_time_max = -2), 0},
	{"wall_time_max must be between 0 (none) and 31536000", SPEC(.wall_time_max = 31536001), 0},
	/* The run's own cgroup (issue 27): refused where it could not be kept as written. */
	{"memory_max needs run_as_user", SPEC(.memory_max = "64M"), 0},
	{"tasks_max needs run_as_user", SPEC(.tasks_max = 20), 0},
	{"cpu_max needs run_as_user", SPEC(.cpu_max = "0.5"), 0},
	{"memory_swap_max needs memory_max", SPEC(.run_as_user = "t1", .memory_swap_max = "1G"), 0},
	{"memory_max must be a number of bytes from 8M to 2^62", SPEC(.memory_max = "0"), 0},
	{"memory_max must be a number of bytes from 8M to 2^62", SPEC(.memory_max = "8388607"), 0},
	{"memory_max must be a number of bytes from 8M to 2^62", SPEC(.memory_max = "7M"), 0},
	{"memory_max must be a number of bytes from 8M to 2^62", SPEC(.memory_max = "64m"), 0},
	{"memory_max must be a number of bytes from 8M to 2^62", SPEC(.memory_max = "max"), 0},
	{"memory_max must be a number of bytes from 8M to 2^62", SPEC(.memory_max = INJECTION), 0},
	{"memory_swap_max must be a number of bytes from 0 to 2^62",
	 SPEC(.memory_max = "64M", .memory_swap_max = "-1"), 0},
	{"memory_swap_max must be a number of bytes from 0 to 2^62",
	 SPEC(.memory_max = "64M", .memory_swap_max = "1 G"), 0},
	{"tasks_max must be between 8", SPEC(.tasks_max = 7), 0},
	{"tasks_max must be between 8", SPEC(.tasks_max = 0), 0},
	{"tasks_max must be between 8", SPEC(.tasks_max = 4194305), 0},
	{"tasks_max must be between 8", SPEC(.tasks_max = INT_MIN), 0},
	{"cpu_max must be a number of CPUs from 0.01 to 1024", SPEC(.cpu_max = "0"), 0},
	{"cpu_max must be a number of CPUs from 0.01 to 1024", SPEC(.cpu_max = "0.009"), 0},
	{"cpu_max must be a number of CPUs from 0.01 to 1024", SPEC(.cpu_max = "0.0001"), 0},
	{"cpu_max must be a number of CPUs from 0.01 to 1024", SPEC(.cpu_max = "1024.001"), 0},
	{"cpu_max must be a number of CPUs from 0.01 to 1024", SPEC(.cpu_max = ".5"), 0},
	{"cpu_max must be a number of CPUs from 0.01 to 1024", SPEC(.cpu_max = "1."), 0},
	{"cpu_max must be a number of CPUs from 0.01 to 1024", SPEC(.cpu_max = "50%"), 0},
	{"cpu_max must be a number of CPUs from 0.01 to 1024", SPEC(.cpu_max = "1e3"), 0},
	{"cpu_max must be a number of CPUs from 0.01 to 1024", SPEC(.cpu_max = "-1"), 0},
	{"cpu_max must be a number of CPUs from 0.01 to 1024", SPEC(.cpu_max = "0.5 "), 0},
	{"cpu_max must be a number of CPUs from 0.01 to 1024", SPEC(.cpu_max = "99999999999"), 0},
	{"cpu_max must be a number of CPUs from 0.01 to 1024", SPEC(.cpu_max = INJECTION), 0},
};

static void check_pcase(const char *what, const struct pcase *pc)
{
	struct got f = by_file(NULL, &pc->spec, 1, pc->people);
	struct got c = by_code(NULL, &pc->spec, 1, pc->people);
	assert_same_refusal(what, &f, &c, pc->reason);
	/* Refused: the injection added no project and no key to any. */
	assert_int_equal(ruas_config_project_count(c.cfg), 0);
	got_free(&f);
	got_free(&c);
}

static void test_project_refusals_same(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof pcases / sizeof *pcases; i++) {
		char what[64];
		snprintf(what, sizeof what, "project case %zu", i);
		check_pcase(what, &pcases[i]);
	}
}

/* Every entry of the table of refused variables, through both paths. */
static void test_env_rules_refused_same(void **state)
{
	(void)state;
	size_t n;
	const struct env_rule *rules = env_rules(&n);
	for (size_t i = 0; i < n; i++) {
		char name[96];
		snprintf(name, sizeof name, "%s%s", rules[i].name, rules[i].prefix ? "EXTRA" : "");
		const char *const allow[] = {"LANG", name, NULL};
		struct pcase pc = {rules[i].why, SPEC(.env_allowlist = allow), 0};
		check_pcase(name, &pc);

		ruas_config_globals g = GLOBALS(.env_allowlist = allow);
		const ruas_project_spec sp = SPEC();
		struct got f = by_file(&g, &sp, 1, 0);
		struct got c = by_code(&g, NULL, 0, 0);
		assert_same_refusal(name, &f, &c, rules[i].why);
		assert_null(c.cfg);
		got_free(&f);
		got_free(&c);
	}
}

/* -------------------------------------------------------- global refusals */

struct gcase {
	const char *reason;
	ruas_config_globals g;
};

static const struct gcase gcases[] = {
	{"sudo must be an absolute path", GLOBALS(.sudo = "usr/bin/sudo")},
	{"sudo must be an absolute path", GLOBALS(.sudo = "")},
	{"helper must be an absolute path", GLOBALS(.helper = "ruas-exec")},
	{"session_helper must be an absolute path", GLOBALS(.session_helper = INJECTION)},
	{"scan_time_limit must be between 1 and 86400", GLOBALS(.scan_time_limit = 0)},
	{"scan_time_limit must be between 1 and 86400", GLOBALS(.scan_time_limit = 86401)},
	{"scan_time_limit must be between 1 and 86400", GLOBALS(.scan_time_limit = -5)},
	{"backend must be", GLOBALS(.backend = "pam ")},
	{"must be a PAM service name", GLOBALS(.pam_service = "../x")},
	{"terminate_grace must be between 0 and 3600", GLOBALS(.terminate_grace = 3601)},
	{"open_files_max must be between 16 and 1048576", GLOBALS(.open_files_max = 8)},
	{"file_size_max must be a number of bytes", GLOBALS(.file_size_max = "1.5G")},
	{"wall_time_max must be between 0 (none) and 31536000", GLOBALS(.wall_time_max = -3)},
	{"memory_max must be a number of bytes from 8M", GLOBALS(.memory_max = "1K")},
	{"tasks_max must be between 8", GLOBALS(.tasks_max = 1)},
	{"cpu_max must be a number of CPUs", GLOBALS(.cpu_max = "2.5.1")},
	{"cgroup_parent \"runs\" must be an absolute path", GLOBALS(.cgroup_parent = "runs")},
	{"cgroup_parent \"/\" must be an absolute path", GLOBALS(.cgroup_parent = "/")},
	{"cgroup_parent \"/a/\" must be", GLOBALS(.cgroup_parent = "/a/")},
	{"cgroup_parent \"/a//b\" must be", GLOBALS(.cgroup_parent = "/a//b")},
	{"cgroup_parent \"/a/./b\" must be", GLOBALS(.cgroup_parent = "/a/./b")},
	{"cgroup_parent \"/a/../b\" must be", GLOBALS(.cgroup_parent = "/a/../b")},
	{"cgroup_parent \"/a/..\" must be", GLOBALS(.cgroup_parent = "/a/..")},
	{"cgroup_parent \"/a\\nb\" must be", GLOBALS(.cgroup_parent = "/a\nb")},
	{"not a variable name", GLOBALS(.env_allowlist = L("TERM", "X Y"))},
	{"plain file name", GLOBALS(.scan_prune = L("a/b"))},
	{"names ALL", GLOBALS(.target_sudo_allowed = L("/usr/bin/systemctl restart ALL"))},
	{"audit_facility must be", GLOBALS(.audit_facility = "authpriv ")},
	{"audit_facility must be", GLOBALS(.audit_facility = "kern")},
	{"audit_log must be an absolute path", GLOBALS(.audit_log = "audit.jsonl")},
	{"audit_log must be an absolute path", GLOBALS(.audit_log = "")},
	{"audit_argv must be", GLOBALS(.audit_argv = "truncate")},
	{"audit_argv_max must be between 1 and 65536", GLOBALS(.audit_argv_max = 0)},
	{"audit_argv_max must be between 1 and 65536", GLOBALS(.audit_argv_max = 65537)},
};

static void test_global_refusals_same(void **state)
{
	(void)state;
	const ruas_project_spec sp = SPEC();
	for (size_t i = 0; i < sizeof gcases / sizeof *gcases; i++) {
		char what[64];
		snprintf(what, sizeof what, "globals case %zu", i);
		struct got f = by_file(&gcases[i].g, &sp, 1, 0);
		struct got c = by_code(&gcases[i].g, NULL, 0, 0);
		assert_same_refusal(what, &f, &c, gcases[i].reason);
		assert_null(c.cfg);
		got_free(&f);
		got_free(&c);
	}
}

/* -------------------------------------------------------- accepted values */

static void assert_same_str(const char *what, const char *a, const char *b)
{
	if (!a || !b) {
		if (a != b)
			fail_msg("%s: \"%s\" against \"%s\"", what, a ? a : "(null)", b ? b : "(null)");
		return;
	}
	if (strcmp(a, b) != 0)
		fail_msg("%s: \"%s\" against \"%s\"", what, a, b);
}

static void assert_same_strv(const char *what, char *const *a, const char *const *b)
{
	if (!a || !b) {
		if ((const void *)a != (const void *)b)
			fail_msg("%s: one list is NULL", what);
		return;
	}
	size_t i = 0;
	for (; a[i] && b[i]; i++)
		assert_same_str(what, a[i], b[i]);
	if (a[i] || b[i])
		fail_msg("%s: lists of different lengths", what);
}

static void assert_same_project(const struct ruas_project *a, const struct ruas_project *b)
{
	assert_same_str("name", a->name, b->name);
	assert_same_str("work_dir", a->work_dir, b->work_dir);
	assert_same_str("run_as_user", a->run_as_user, b->run_as_user);
	assert_same_str("person", a->person, b->person);
	assert_same_str("pam_service", a->pam_service, b->pam_service);
	assert_same_strv("command", a->command, (const char *const *)b->command);
	assert_same_strv("env_allowlist", a->env_allowlist, (const char *const *)b->env_allowlist);
	assert_same_strv("scan_prune", a->scan_prune, (const char *const *)b->scan_prune);
	assert_same_strv("deny_settings_args", a->deny_settings_args,
			 (const char *const *)b->deny_settings_args);
	assert_same_strv("target_sudo_allowed", a->target_sudo_allowed,
			 (const char *const *)b->target_sudo_allowed);
	assert_int_equal(a->ncommand, b->ncommand);
	assert_int_equal(a->nallow, b->nallow);
	assert_int_equal(a->nprune, b->nprune);
	assert_int_equal(a->ndeny_args, b->ndeny_args);
	assert_int_equal(a->nsudo_allowed, b->nsudo_allowed);
	assert_int_equal(a->backend, b->backend);
	assert_int_equal(a->terminate_grace, b->terminate_grace);
	assert_memory_equal(&a->limits, &b->limits, sizeof a->limits);
}

static void assert_same_config(const struct ruas_config *a, const struct ruas_config *b)
{
	assert_same_str("path", a->path, b->path);
	assert_same_str("sudo", a->sudo, b->sudo);
	assert_same_str("helper", a->helper, b->helper);
	assert_same_str("session_helper", a->session_helper, b->session_helper);
	assert_same_str("supervisor", a->supervisor_name, b->supervisor_name);
	assert_same_str("pam_service", a->pam_service, b->pam_service);
	assert_same_str("cgroup_parent", a->cgroup_parent, b->cgroup_parent);
	assert_same_strv("env_allowlist", a->env_allowlist, (const char *const *)b->env_allowlist);
	assert_same_strv("scan_prune", a->scan_prune, (const char *const *)b->scan_prune);
	assert_same_strv("target_sudo_allowed", a->target_sudo_allowed,
			 (const char *const *)b->target_sudo_allowed);
	assert_int_equal(a->scan_time_limit, b->scan_time_limit);
	assert_int_equal(a->supervisor_uid, b->supervisor_uid);
	assert_int_equal(a->backend, b->backend);
	assert_int_equal(a->terminate_grace, b->terminate_grace);
	assert_memory_equal(&a->limits, &b->limits, sizeof a->limits);
	assert_int_equal(a->nprojects, b->nprojects);
	for (size_t i = 0; i < a->nprojects; i++) {
		assert_same_project(a->projects[i], b->projects[i]);
		assert_true(a->projects[i]->line > 0);
		assert_int_equal(b->projects[i]->line, 0);
	}
}

/* Accepted through both paths, and the same in every field. */
static void assert_same_accepted(const ruas_config_globals *g, const ruas_project_spec *specs,
				 size_t n, int people)
{
	struct got f = by_file(g, specs, n, people);
	struct got c = by_code(g, specs, n, people);
	if (f.r != 0 || c.r != 0)
		fail_msg("refused: file %d (%s), code %d (%s)", f.r, ruas_error_message(f.err), c.r,
			 ruas_error_message(c.err));
	assert_same_config(f.cfg, c.cfg);
	got_free(&f);
	got_free(&c);
}

static char *long_string(size_t n)
{
	static const char mix[] = "a\"b\\c\nd$e'f`g;h}i)j#k ";
	char *s = malloc(n + 1);
	assert_non_null(s);
	for (size_t i = 0; i < n; i++)
		s[i] = mix[i % (sizeof mix - 1)];
	s[n] = '\0';
	return s;
}

/* Hostile strings where any string is allowed: stored byte for byte. */
static void test_hostile_values_byte_exact(void **state)
{
	(void)state;
	char *big = long_string(100000);
	const char *const cmd[] = {"agent", INJECTION, "\"", "\\", "a\nb", "$HOME", "", "$(id)",
				   "\xff\xfe", "{file}", big, NULL};
	const char *work_dir = "/srv/x\"; run_as_user = \"root\"; #\n$HOME";
	ruas_project_spec sp = SPEC(.name = A128, .work_dir = work_dir, .command = cmd);
	assert_same_accepted(NULL, &sp, 1, 0);

	struct got c = by_code(NULL, &sp, 1, 0);
	assert_int_equal(c.r, 0);
	assert_int_equal(ruas_config_project_count(c.cfg), 1);
	const ruas_project *p = ruas_config_project_at(c.cfg, 0);
	assert_string_equal(ruas_project_name(p), A128);
	assert_string_equal(ruas_project_work_dir(p), work_dir);
	assert_null(ruas_project_run_as_user(p));
	const char *const *got = ruas_project_command(p);
	for (size_t i = 0; cmd[i]; i++)
		assert_string_equal(got[i], cmd[i]);
	assert_null(got[sizeof cmd / sizeof *cmd - 1]);
	got_free(&c);
	free(big);
}

/*
 * require_command (issue 28): the top level's is each project's default, a
 * project's own wins, from a file and from code alike; neither 0 nor 1 is
 * refused; a version 3 spec, which ends before it, is read as none.
 */
static void test_require_command(void **state)
{
	(void)state;
	ruas_config *cfg;
	ruas_error *err = NULL;
	static const char text[] =
		"require_command = true;\n"
		"projects = ( { name = \"a\"; run_as_user = \"t1\"; work_dir = \"/srv/a\"; command = [\"x\"]; },\n"
		"  { name = \"b\"; run_as_user = \"t2\"; work_dir = \"/srv/b\"; command = [\"x\"];\n"
		"    require_command = false; } );\n";
	ruas_config_options lo = RUAS_CONFIG_OPTIONS_INIT;
	lo.supervisor_uid = 0;
	lo.skip_owner_check = 1;
	assert_int_equal(ruas_config_load_buffer(&cfg, text, sizeof text - 1, "t", &lo, &err), 0);
	assert_int_equal(ruas_project_require_command(ruas_config_project_find(cfg, "a")), 1);
	assert_int_equal(ruas_project_require_command(ruas_config_project_find(cfg, "b")), 0);
	ruas_config_free(cfg);
	static const char bad[] = "projects = ( { name = \"a\"; work_dir = \"/srv/a\"; "
				  "command = [\"x\"]; require_command = \"yes\"; } );\n";
	assert_int_equal(ruas_config_load_buffer(&cfg, bad, sizeof bad - 1, "t", &lo, &err),
			 RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(err), "require_command must be true or false"));
	ruas_error_free(err);
	err = NULL;

	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	o.supervisor_uid = 0;
	ruas_config_globals g = GLOBALS(.require_command = 1);
	assert_int_equal(ruas_config_new(&cfg, &g, &o, &err), 0);
	ruas_project_spec sp = SPEC();
	assert_int_equal(ruas_config_add_project(cfg, &sp, &err), 0);
	assert_int_equal(ruas_project_require_command(ruas_config_project_find(cfg, "p")), 1);
	ruas_project_spec off = SPEC(.name = "q", .require_command = 0);
	assert_int_equal(ruas_config_add_project(cfg, &off, &err), 0);
	assert_int_equal(ruas_project_require_command(ruas_config_project_find(cfg, "q")), 0);
	ruas_project_spec two = SPEC(.name = "r", .require_command = 2);
	assert_int_equal(ruas_config_add_project(cfg, &two, &err), RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(err), "require_command must be true or false"));
	ruas_error_free(err);
	err = NULL;
	ruas_config_free(cfg);

	/* Version 3: the bytes after cpu_max are not the library's to read. */
	assert_int_equal(ruas_config_new(&cfg, NULL, &o, &err), 0);
	struct {
		ruas_project_spec spec;
		char guard[64];
	} v3;
	memset(&v3, 0x5a, sizeof v3);
	assert_int_equal(ruas_project_spec_init(&v3.spec, 3), 0);
	assert_int_equal(v3.guard[0], 0x5a); /* the init wrote only version 3's bytes */
	v3.spec.name = "old";
	v3.spec.work_dir = "/srv/p";
	v3.spec.command = agent_cmd;
	assert_int_equal(ruas_config_add_project(cfg, &v3.spec, &err), 0);
	assert_int_equal(ruas_project_require_command(ruas_config_project_find(cfg, "old")), 0);
	ruas_config_free(cfg);
}

/*
 * claude_api_key (issue 29): the top level's is each project's default, a
 * project's own wins, from a file and from code alike; it must name one of
 * the project's effective credentials (a configuration error naming it
 * otherwise) and be a credential name; a version 5 spec, which ends before
 * it, is read as none.
 */
static void test_claude_api_key(void **state)
{
	(void)state;
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	ruas_config_options lo = RUAS_CONFIG_OPTIONS_INIT;
	lo.supervisor_uid = 0;
	lo.skip_owner_check = 1;
	static const char text[] =
		"credentials = ( { name = \"anthropic\"; from_env = \"ANTHROPIC_API_KEY\"; } );\n"
		"claude_api_key = \"anthropic\";\n"
		"projects = ( { name = \"a\"; run_as_user = \"t1\"; work_dir = \"/srv/a\"; command = [\"x\"]; },\n"
		"  { name = \"b\"; run_as_user = \"t2\"; work_dir = \"/srv/b\"; command = [\"x\"];\n"
		"    credentials = ( { name = \"other\"; from_file = \"/etc/k\"; } ); claude_api_key = \"other\"; } );\n";
	assert_int_equal(ruas_config_load_buffer(&cfg, text, sizeof text - 1, "t", &lo, &err), 0);
	assert_string_equal(ruas_config_project_find(cfg, "a")->claude_api_key, "anthropic");
	assert_string_equal(ruas_config_project_find(cfg, "b")->claude_api_key, "other");
	ruas_config_free(cfg);
	static const char none[] = "projects = ( { name = \"a\"; run_as_user = \"t1\"; "
				   "work_dir = \"/srv/a\"; command = [\"x\"]; } );\n";
	assert_int_equal(ruas_config_load_buffer(&cfg, none, sizeof none - 1, "t", &lo, &err), 0);
	assert_null(ruas_config_project_find(cfg, "a")->claude_api_key);
	ruas_config_free(cfg);

	/* A name no credential of the project has: refused, naming it, at the key's line. */
	static const char missing[] =
		"credentials = ( { name = \"anthropic\"; from_env = \"ANTHROPIC_API_KEY\"; } );\n"
		"projects = ( { name = \"a\"; run_as_user = \"t1\"; work_dir = \"/srv/a\"; command = [\"x\"];\n"
		"  claude_api_key = \"antropic\"; } );\n";
	assert_int_equal(ruas_config_load_buffer(&cfg, missing, sizeof missing - 1, "t", &lo, &err),
			 RUAS_ERR_CONFIG);
	assert_int_equal(ruas_error_line(err), 3);
	assert_non_null(strstr(ruas_error_message(err),
			       "claude_api_key \"antropic\" names no credential of project \"a\""));
	ruas_error_free(err);
	err = NULL;
	/* The top level's, for a project with no credentials at all: its line. */
	static const char global_missing[] =
		"claude_api_key = \"anthropic\";\n"
		"projects = ( { name = \"a\"; run_as_user = \"t1\"; work_dir = \"/srv/a\"; command = [\"x\"]; } );\n";
	assert_int_equal(ruas_config_load_buffer(&cfg, global_missing, sizeof global_missing - 1,
						 "t", &lo, &err),
			 RUAS_ERR_CONFIG);
	assert_int_equal(ruas_error_line(err), 1);
	assert_non_null(strstr(ruas_error_message(err),
			       "claude_api_key \"anthropic\" names no credential of project \"a\""));
	ruas_error_free(err);
	err = NULL;
	static const char badname[] = "claude_api_key = \"Bad Name\";\n";
	assert_int_equal(ruas_config_load_buffer(&cfg, badname, sizeof badname - 1, "t", &lo, &err),
			 RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(err),
			       "claude_api_key \"Bad Name\" is not a credential name"));
	ruas_error_free(err);
	err = NULL;

	/* From code: the same. */
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	o.supervisor_uid = 0;
	const ruas_credential_spec creds[] = {
		{"anthropic", "ANTHROPIC_API_KEY", NULL, NULL, RUAS_UNSET},
	};
	ruas_config_globals g = GLOBALS(.credentials = creds, .credential_count = 1,
					.claude_api_key = "anthropic");
	assert_int_equal(ruas_config_new(&cfg, &g, &o, &err), 0);
	ruas_project_spec sp = SPEC(.run_as_user = "t1");
	assert_int_equal(ruas_config_add_project(cfg, &sp, &err), 0);
	assert_string_equal(ruas_config_project_find(cfg, "p")->claude_api_key, "anthropic");
	ruas_project_spec wrong = SPEC(.name = "q", .run_as_user = "t1", .claude_api_key = "gh");
	assert_int_equal(ruas_config_add_project(cfg, &wrong, &err), RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(err),
			       "claude_api_key \"gh\" names no credential of project \"q\""));
	ruas_error_free(err);
	err = NULL;

	/* Version 5: the bytes after git_host_count are not the library's to read. */
	struct {
		ruas_project_spec spec;
		char guard[64];
	} v5;
	memset(&v5, 0x5a, sizeof v5);
	assert_int_equal(ruas_project_spec_init(&v5.spec, 5), 0);
	v5.spec.name = "old";
	v5.spec.work_dir = "/srv/p";
	v5.spec.command = agent_cmd;
	v5.spec.run_as_user = "t1";
	assert_int_equal(ruas_config_add_project(cfg, &v5.spec, &err), 0);
	assert_string_equal(ruas_config_project_find(cfg, "old")->claude_api_key, "anthropic");
	for (size_t i = 0; i < sizeof v5.guard; i++)
		assert_int_equal((unsigned char)v5.guard[i], 0x5a);
	ruas_config_free(cfg);
}

/*
 * What only code can give: core_dumps neither 0 nor 1 (a file's is true or
 * false); a version 1 spec, which ends before the limits, read as none.
 */
static void test_limits_from_code(void **state)
{
	(void)state;
	ruas_config *cfg;
	ruas_error *err = NULL;
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	o.supervisor_uid = 0;
	assert_int_equal(ruas_config_new(&cfg, NULL, &o, &err), 0);
	ruas_project_spec sp = SPEC(.core_dumps = 2);
	assert_int_equal(ruas_config_add_project(cfg, &sp, &err), RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(err), "core_dumps must be true or false"));
	ruas_error_free(err);
	err = NULL;
	/* Version 1: the bytes after lifetime are not the library's to read. */
	struct {
		ruas_project_spec spec;
		char guard[64];
	} v1;
	memset(&v1, 0x5a, sizeof v1);
	assert_int_equal(ruas_project_spec_init(&v1.spec, 1), 0);
	assert_int_equal(v1.guard[0], 0x5a); /* the init wrote only version 1's bytes */
	v1.spec.name = "old";
	v1.spec.work_dir = "/srv/p";
	v1.spec.command = agent_cmd;
	assert_int_equal(ruas_config_add_project(cfg, &v1.spec, &err), 0);
	const ruas_project *p = ruas_config_project_find(cfg, "old");
	assert_non_null(p);
	assert_int_equal(ruas_project_wall_time_max(p), 0);
	assert_int_equal(ruas_project_open_files_max(p), 0);
	assert_int_equal(p->limits.file_size, 0);
	assert_null(ruas_project_file_size_max(p));
	assert_int_equal(p->limits.core_dumps, 0);
	ruas_config_free(cfg);
	/* A file's sizes: a string with a unit, or a number, 64-bit too; the project's win. */
	static const char text[] =
		"file_size_max = \"64M\"; wall_time_max = 30; core_dumps = true;\n"
		"projects = ( { name = \"a\"; run_as_user = \"t1\"; work_dir = \"/srv/a\"; command = [\"x\"]; },\n"
		"  { name = \"b\"; run_as_user = \"t2\"; work_dir = \"/srv/b\"; command = [\"x\"];\n"
		"    file_size_max = 5000000000L; wall_time_max = 0; core_dumps = false;\n"
		"    open_files_max = 512; } );\n";
	ruas_config_options lo = RUAS_CONFIG_OPTIONS_INIT;
	lo.supervisor_uid = 0;
	lo.skip_owner_check = 1;
	assert_int_equal(ruas_config_load_buffer(&cfg, text, sizeof text - 1, "t", &lo, &err), 0);
	const ruas_project *a = ruas_config_project_find(cfg, "a");
	const ruas_project *b = ruas_config_project_find(cfg, "b");
	assert_true(a->limits.file_size == 64ULL << 20);
	assert_int_equal(ruas_project_wall_time_max(a), 30);
	assert_int_equal(a->limits.core_dumps, 1);
	assert_int_equal(ruas_project_open_files_max(a), 0);
	assert_true(b->limits.file_size == 5000000000ULL);
	assert_string_equal(ruas_project_file_size_max(b), "5000000000");
	assert_string_equal(ruas_project_file_size_max(a), "67108864");
	assert_int_equal(ruas_project_core_dumps(a), 1);
	assert_int_equal(ruas_project_core_dumps(b), 0);
	assert_int_equal(ruas_project_wall_time_max(b), 0);
	assert_int_equal(b->limits.core_dumps, 0);
	assert_int_equal(ruas_project_open_files_max(b), 512);
	ruas_config_free(cfg);
	/* The top level's rlimits bind a project without run_as_user too: refused, not dropped. */
	static const char legacy[] = "open_files_max = 64;\n"
				     "projects = ( { name = \"l\"; work_dir = \"/srv/l\"; "
				     "command = [\"x\"]; } );\n";
	assert_int_equal(ruas_config_load_buffer(&cfg, legacy, sizeof legacy - 1, "t", &lo, &err),
			 RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(err),
			       "project \"l\": open_files_max needs run_as_user"));
	ruas_error_free(err);
	err = NULL;
	/* A boolean where a number is, and a number where a boolean is: refused by name. */
	static const char bad[] = "core_dumps = 1;\nprojects = ();\n";
	assert_int_equal(ruas_config_load_buffer(&cfg, bad, sizeof bad - 1, "t", &lo, &err),
			 RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(err), "core_dumps must be true or false"));
	ruas_error_free(err);
	err = NULL;
	static const char bad2[] = "file_size_max = true;\nprojects = ();\n";
	assert_int_equal(ruas_config_load_buffer(&cfg, bad2, sizeof bad2 - 1, "t", &lo, &err),
			 RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(err), "file_size_max must be a number"));
	ruas_error_free(err);
}

/* A file's cgroup limits in each form it may write them, and the accessors' decimal. */
static void test_cgroup_keys(void **state)
{
	(void)state;
	ruas_config_options lo = RUAS_CONFIG_OPTIONS_INIT;
	lo.supervisor_uid = 0;
	lo.skip_owner_check = 1;
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	static const char text[] =
		"memory_max = \"64M\"; cpu_max = 0.5; tasks_max = 64;\n"
		"cgroup_parent = \"/sys/fs/cgroup/system.slice/bridge.service/runs\";\n"
		"projects = ( { name = \"a\"; run_as_user = \"t1\"; work_dir = \"/srv/a\"; command = [\"x\"]; },\n"
		"  { name = \"b\"; run_as_user = \"t2\"; work_dir = \"/srv/b\"; command = [\"x\"];\n"
		"    memory_max = 5000000000L; memory_swap_max = \"1G\"; cpu_max = 2; tasks_max = 8; },\n"
		"  { name = \"c\"; run_as_user = \"t2\"; work_dir = \"/srv/c\"; command = [\"x\"];\n"
		"    cpu_max = \"1024\"; memory_max = 8388608; } );\n";
	assert_int_equal(ruas_config_load_buffer(&cfg, text, sizeof text - 1, "t", &lo, &err), 0);
	const ruas_project *a = ruas_config_project_find(cfg, "a");
	const ruas_project *b = ruas_config_project_find(cfg, "b");
	const ruas_project *c = ruas_config_project_find(cfg, "c");
	assert_string_equal(ruas_project_memory_max(a), "67108864");
	assert_string_equal(ruas_project_memory_swap_max(a), "0"); /* no swap unless given */
	assert_string_equal(ruas_project_cpu_max(a), "0.5");
	assert_int_equal(ruas_project_tasks_max(a), 64);
	assert_string_equal(ruas_project_memory_max(b), "5000000000");
	assert_string_equal(ruas_project_memory_swap_max(b), "1073741824");
	assert_string_equal(ruas_project_cpu_max(b), "2");
	assert_int_equal(ruas_project_tasks_max(b), 8);
	assert_int_equal(b->limits.cpu_milli, 2000);
	assert_string_equal(ruas_project_cpu_max(c), "1024");
	assert_string_equal(ruas_project_memory_max(c), "8388608");
	assert_string_equal(cfg->cgroup_parent, "/sys/fs/cgroup/system.slice/bridge.service/runs");
	ruas_config_free(cfg);
	/* None: NULL and 0. */
	static const char none[] = "projects = ( { name = \"n\"; run_as_user = \"t1\"; "
				   "work_dir = \"/srv/n\"; command = [\"x\"]; } );\n";
	assert_int_equal(ruas_config_load_buffer(&cfg, none, sizeof none - 1, "t", &lo, &err), 0);
	const ruas_project *n = ruas_config_project_find(cfg, "n");
	assert_null(ruas_project_memory_max(n));
	assert_null(ruas_project_memory_swap_max(n));
	assert_null(ruas_project_cpu_max(n));
	assert_int_equal(ruas_project_tasks_max(n), 0);
	assert_null(cfg->cgroup_parent);
	ruas_config_free(cfg);
	/* Refused as written, never rounded: a file's forms of each. */
	static const struct {
		const char *text, *want;
	} bad[] = {
		{"cpu_max = 0.0001;", "cpu_max must be a number of CPUs from 0.01 to 1024"},
		{"cpu_max = 0.1234;", "cpu_max must be a number of CPUs from 0.01 to 1024"},
		{"cpu_max = 1025;", "cpu_max must be a number of CPUs from 0.01 to 1024"},
		{"cpu_max = 1024.5;", "cpu_max must be a number of CPUs from 0.01 to 1024"},
		{"cpu_max = -0.5;", "cpu_max must be a number of CPUs from 0.01 to 1024"},
		{"cpu_max = true;", "cpu_max must be a number of CPUs from 0.01 to 1024"},
		{"memory_max = 1.5;", "memory_max must be a number of bytes from 8M"},
		{"memory_max = -64;", "memory_max must be a number of bytes from 8M"},
		{"tasks_max = 20.5;", "tasks_max must be a whole number"},
		{"cgroup_parent = 5;", "key \"cgroup_parent\" must be a string"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char t[256];
		snprintf(t, sizeof t, "%s\nprojects = ();\n", bad[i].text);
		assert_int_equal(ruas_config_load_buffer(&cfg, t, strlen(t), "t", &lo, &err),
				 RUAS_ERR_CONFIG);
		if (!strstr(ruas_error_message(err), bad[i].want))
			fail_msg("%s: %s", bad[i].text, ruas_error_message(err));
		ruas_error_free(err);
		err = NULL;
	}
}

/* Every key of a project and of the globals, set: the same as from the file. */
static void test_every_key_same_as_file(void **state)
{
	(void)state;
	const ruas_config_globals g =
		GLOBALS(.env_allowlist = L("TERM", "TERM", "LANG"), .sudo = "/opt/sudo",
			.helper = "/opt/ruas-exec", .session_helper = "/opt/ruas-session",
			.scan_prune = L("node_modules", ".cache"), .scan_time_limit = 7,
			.backend = "sudo", .pam_service = "ruas-x", .terminate_grace = 9,
			.target_sudo_allowed = L("/usr/bin/systemctl restart a"),
			.audit_facility = "local3", .audit_log = "/var/log/ruas dir/a \"b\".jsonl",
			.audit_argv = "full", .audit_argv_max = 100, .open_files_max = 4096,
			.file_size_max = "1G", .core_dumps = 1, .wall_time_max = 3600,
			.memory_max = "2G", .memory_swap_max = "512M", .tasks_max = 512,
			.cpu_max = "1.5", .cgroup_parent = "/sys/fs/cgroup/a b/runs...");
	const ruas_project_spec specs[] = {
		SPEC(.name = "full", .run_as_user = "t1", .env_allowlist = L("FOO", "TERM", "FOO"),
		     .scan_prune = EMPTY, .target_sudo_allowed = L("/usr/bin/systemctl restart b"),
		     .backend = "pam", .pam_service = "other", .terminate_grace = 0,
		     .command = L("claude", "--print", ""), .open_files_max = 16,
		     .file_size_max = "67108864", .core_dumps = 0, .wall_time_max = 0,
		     .memory_max = "8M", .memory_swap_max = "0", .tasks_max = 8, .cpu_max = "0.01"),
		SPEC(.name = "plain", .run_as_user = "t2"),
	};
	assert_same_accepted(&g, specs, 2, 0);
	assert_same_accepted(NULL, specs, 2, 0);

	/* A person's project, added to a loaded configuration with people. */
	const ruas_project_spec people[] = {
		SPEC(.name = "alice-p", .person = "alice", .work_dir = "/srv/wt/alice/x",
		     .deny_settings_args = L("--settings", "{file}", INJECTION)),
		SPEC(.name = "bob-p", .person = "bob", .run_as_user = "t2", .work_dir = "/srv/wt/bob"),
	};
	assert_same_accepted(NULL, people, 2, 1);
}

/* ruas_config_new() with no globals: what a file of only projects gives. */
static void test_defaults_as_file(void **state)
{
	(void)state;
	const ruas_project_spec sp = SPEC(.run_as_user = "t1");
	assert_same_accepted(NULL, &sp, 1, 0);

	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	assert_int_equal(ruas_config_new(&cfg, NULL, NULL, &err), 0);
	assert_null(err);
	assert_string_equal(ruas_config_path(cfg), "(ruas_config_new)");
	assert_int_equal(ruas_config_project_count(cfg), 0);
	assert_null(ruas_config_project_at(cfg, 0));
	assert_null(ruas_config_project_find(cfg, "p"));
	assert_int_equal(cfg->supervisor_uid, geteuid());
	struct got f = load_text("projects = ();\n");
	assert_int_equal(f.r, 0);
	assert_string_equal(ruas_config_sudo(cfg), ruas_config_sudo(f.cfg));
	assert_string_equal(ruas_config_helper(cfg), ruas_config_helper(f.cfg));
	assert_string_equal(cfg->session_helper, f.cfg->session_helper);
	assert_int_equal(cfg->scan_time_limit, f.cfg->scan_time_limit);
	assert_null(cfg->people);
	got_free(&f);
	ruas_config_free(cfg);
}

/* ------------------------------------------------------ duplicates, order */

static void test_duplicate_name(void **state)
{
	(void)state;
	const ruas_project_spec specs[] = {SPEC(.name = "dup"), SPEC(.name = "other"),
					   SPEC(.name = "dup", .work_dir = "/z")};
	struct got f = by_file(NULL, specs, 3, 0);
	struct got c = by_code(NULL, specs, 3, 0);
	assert_int_equal(f.r, RUAS_ERR_CONFIG);
	assert_int_equal(c.r, RUAS_ERR_CONFIG);
	/* The file names where the first is; code has no lines to name. */
	assert_string_equal(ruas_error_message(c.err), "duplicate project name \"dup\"");
	char *fm = strdup(without_place(ruas_error_message(f.err)));
	assert_non_null(fm);
	char *first = strstr(fm, " (first at line ");
	assert_non_null(first);
	*first = '\0';
	assert_string_equal(fm, ruas_error_message(c.err));
	free(fm);
	assert_int_equal(ruas_config_project_count(c.cfg), 2);
	assert_string_equal(ruas_project_work_dir(ruas_config_project_find(c.cfg, "dup")),
			    "/srv/p");
	got_free(&c);
	got_free(&f);

	/* Added to a loaded file: the first one has a line, which is named. */
	f = load_text("projects = (\n  { name = \"dup\"; work_dir = \"/x\"; command = [\"x\"]; }\n);\n");
	assert_int_equal(f.r, 0);
	assert_int_equal(ruas_config_add_project(f.cfg, &specs[0], &f.err), RUAS_ERR_CONFIG);
	assert_string_equal(ruas_error_message(f.err),
			    "duplicate project name \"dup\" (first at line 2)");
	assert_null(ruas_error_file(f.err));
	got_free(&f);
}

/*
 * A run_as_user with no passwd entry is refused where the project is built
 * in code (RUAS_ERR_CONFIG naming the project and the user, and nothing
 * added), not first at preflight; one that exists is taken.
 */
static void test_missing_user_refused(void **state)
{
	(void)state;
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	ruas_config_options o = options();
	assert_int_equal(ruas_config_new(&cfg, NULL, &o, &err), 0);
	const ruas_project_spec gone = SPEC(.name = "agent-gone", .run_as_user = "ruas-gone");
	assert_int_equal(ruas_config_add_project(cfg, &gone, &err), RUAS_ERR_CONFIG);
	assert_string_equal(ruas_error_message(err),
			    "project \"agent-gone\": run_as_user \"ruas-gone\" has no passwd entry "
			    "(create it: ruas-setup useradd)");
	ruas_error_free(err);
	err = NULL;
	/* A name the loader refuses is refused for that first, with the loader's message. */
	const ruas_project_spec bad = SPEC(.name = "agent\nx", .run_as_user = "ruas-gone");
	assert_int_equal(ruas_config_add_project(cfg, &bad, &err), RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(err), "project name \"agent\\nx\" is invalid"));
	ruas_error_free(err);
	err = NULL;
	assert_int_equal(ruas_config_project_count(cfg), 0);
	const ruas_project_spec there = SPEC(.name = "agent", .run_as_user = "t1");
	assert_int_equal(ruas_config_add_project(cfg, &there, &err), 0);
	assert_int_equal(ruas_config_project_count(cfg), 1);
	ruas_config_free(cfg);
}

/* Pointers to projects survive later additions; order is the order of adding. */
static void test_pointers_stable(void **state)
{
	(void)state;
	ruas_config *cfg = NULL;
	assert_int_equal(ruas_config_new(&cfg, NULL, NULL, NULL), 0);
	ruas_project_spec sp = SPEC(.name = "first");
	assert_int_equal(ruas_config_add_project(cfg, &sp, NULL), 0);
	const ruas_project *p0 = ruas_config_project_at(cfg, 0);
	for (int i = 0; i < 100; i++) {
		char name[16];
		snprintf(name, sizeof name, "p%d", i);
		sp.name = name;
		assert_int_equal(ruas_config_add_project(cfg, &sp, NULL), 0);
	}
	assert_ptr_equal(ruas_config_project_at(cfg, 0), p0);
	assert_ptr_equal(ruas_config_project_find(cfg, "first"), p0);
	assert_string_equal(ruas_project_name(p0), "first");
	assert_int_equal(ruas_config_project_count(cfg), 101);
	assert_string_equal(ruas_project_name(ruas_config_project_at(cfg, 100)), "p99");
	ruas_config_free(cfg);
}

/* ------------------------------------------------------------- ownership */

static char *dup_or_fail(const char *s)
{
	char *d = strdup(s);
	assert_non_null(d);
	return d;
}

/*
 * A version 1 caller's struct ends before the audit keys: the library reads
 * nothing past it (an allocation of exactly that size, for ASan to watch).
 */
static void test_globals_version_1(void **state)
{
	(void)state;
	size_t v1 = offsetof(ruas_config_globals, audit_facility);
	ruas_config_globals full = GLOBALS(.sudo = "/opt/sudo", .terminate_grace = 3);
	full.version = 1;
	void *g = malloc(v1);
	assert_non_null(g);
	memcpy(g, &full, v1);
	ruas_config_options o = options();
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	int r = ruas_config_new(&cfg, g, &o, &err);
	if (r != 0)
		fail_msg("version 1 globals refused: %s", ruas_error_message(err));
	ruas_config_free(cfg);
	free(g);
}

/* Overwrites and frees what the caller passed, as a binding's GC would. */
static void scrub(char **v)
{
	for (char **e = v; *e; e++) {
		memset(*e, 'X', strlen(*e));
		free(*e);
	}
}

static void test_caller_keeps_ownership(void **state)
{
	(void)state;
	char *gs[] = {dup_or_fail("store"), dup_or_fail("/opt/sudo"), dup_or_fail("FOO"),
		      dup_or_fail("ruas-x"), NULL};
	char *allow[] = {gs[2], NULL};
	ruas_config_globals g = GLOBALS(.name = gs[0], .sudo = gs[1],
					.env_allowlist = (const char *const *)allow,
					.pam_service = gs[3]);
	ruas_config *cfg = NULL;
	ruas_config_options o = options();
	assert_int_equal(ruas_config_new(&cfg, &g, &o, NULL), 0);
	scrub(gs);

	char *ps[] = {dup_or_fail("owned"), dup_or_fail("/srv/owned"), dup_or_fail("agent"),
		      dup_or_fail("--flag"), dup_or_fail("t1"), dup_or_fail("BAR"),
		      dup_or_fail("node_modules"), dup_or_fail("sudo"), NULL};
	char *cmd[] = {ps[2], ps[3], NULL}, *pallow[] = {ps[5], NULL}, *prune[] = {ps[6], NULL};
	ruas_project_spec sp = SPEC(.name = ps[0], .work_dir = ps[1],
				    .command = (const char *const *)cmd, .run_as_user = ps[4],
				    .env_allowlist = (const char *const *)pallow,
				    .scan_prune = (const char *const *)prune, .backend = ps[7]);
	assert_int_equal(ruas_config_add_project(cfg, &sp, NULL), 0);
	scrub(ps);

	assert_string_equal(ruas_config_path(cfg), "store");
	assert_string_equal(ruas_config_sudo(cfg), "/opt/sudo");
	const ruas_project *p = ruas_config_project_find(cfg, "owned");
	assert_non_null(p);
	assert_string_equal(ruas_project_work_dir(p), "/srv/owned");
	assert_string_equal(ruas_project_run_as_user(p), "t1");
	assert_string_equal(ruas_project_command(p)[0], "agent");
	assert_string_equal(ruas_project_command(p)[1], "--flag");
	assert_string_equal(ruas_project_env_allowlist(p)[0], "FOO");
	assert_string_equal(ruas_project_env_allowlist(p)[1], "BAR");
	assert_string_equal(p->scan_prune[0], "node_modules");
	assert_string_equal(p->pam_service, "ruas-x");
	assert_string_equal(ruas_project_backend(p), "sudo");
	ruas_config_free(cfg);
}

/* ------------------------------------------------------------- arguments */

static void test_bad_arguments(void **state)
{
	(void)state;
	ruas_config *cfg = (ruas_config *)0x1;
	ruas_error *err = NULL;
	ruas_config_globals g = RUAS_CONFIG_GLOBALS_INIT;
	g.version = RUAS_CONFIG_GLOBALS_VERSION + 1; /* one past the newest */
	assert_int_equal(ruas_config_new(&cfg, &g, NULL, &err), RUAS_ERR_INVALID);
	assert_null(cfg);
	char want[64];
	snprintf(want, sizeof want, "ruas_config_new: unknown options version %u",
		 RUAS_CONFIG_GLOBALS_VERSION + 1u);
	assert_string_equal(ruas_error_message(err), want);
	ruas_error_free(err);
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	o.version = 0;
	assert_int_equal(ruas_config_new(&cfg, NULL, &o, NULL), RUAS_ERR_INVALID);
	assert_int_equal(ruas_config_new(NULL, NULL, NULL, NULL), RUAS_ERR_INVALID);

	assert_int_equal(ruas_config_new(&cfg, NULL, NULL, NULL), 0);
	ruas_project_spec sp = SPEC();
	sp.version = 99;
	err = NULL;
	assert_int_equal(ruas_config_add_project(cfg, &sp, &err), RUAS_ERR_INVALID);
	assert_string_equal(ruas_error_message(err),
			    "ruas_config_add_project: unknown options version 99");
	ruas_error_free(err);
	sp.version = 0;
	assert_int_equal(ruas_config_add_project(cfg, &sp, NULL), RUAS_ERR_INVALID);
	assert_int_equal(ruas_config_add_project(cfg, NULL, NULL), RUAS_ERR_INVALID);
	assert_int_equal(ruas_config_add_project(NULL, &sp, NULL), RUAS_ERR_INVALID);
	assert_int_equal(ruas_config_project_count(cfg), 0);
	ruas_config_free(cfg);
}

/* ---------------------------------------------------- preflight, audit */

/* Every sudo call is refused for want of a password. */
static int password_run(void *ctx, const struct run_request *req, struct run_result *res)
{
	(void)ctx;
	(void)req;
	memset(res, 0, sizeof *res);
	buf_adds(&res->err, "sudo: a password is required\n");
	res->wait_status = 1 << 8;
	return 0;
}

static ruas_report *preflight_fake(const ruas_config *cfg)
{
	struct runner rn = {password_run, NULL, 0, "/nonexistent/ruas-test-fs-root"};
	ruas_report *rep = NULL;
	ruas_error *err = NULL;
	if (preflight_run(&rep, cfg, 0, 0, &rn, &err) != 0)
		fail_msg("preflight_run: %s", ruas_error_message(err));
	return rep;
}

static void assert_same_report(const ruas_report *a, const ruas_report *b)
{
	assert_int_equal(ruas_report_project_count(a), ruas_report_project_count(b));
	assert_int_equal(ruas_report_has_fatal(a), ruas_report_has_fatal(b));
	for (size_t p = 0; p < ruas_report_project_count(a); p++) {
		assert_string_equal(ruas_report_project_name(a, p), ruas_report_project_name(b, p));
		assert_int_equal(ruas_report_item_count(a, p), ruas_report_item_count(b, p));
		for (size_t i = 0; i < ruas_report_item_count(a, p); i++) {
			assert_int_equal(ruas_report_item_severity(a, p, i),
					 ruas_report_item_severity(b, p, i));
			assert_string_equal(ruas_report_item_check(a, p, i),
					    ruas_report_item_check(b, p, i));
			assert_string_equal(ruas_report_item_text(a, p, i),
					    ruas_report_item_text(b, p, i));
		}
	}
}

static void test_preflight_as_loaded(void **state)
{
	(void)state;
	const ruas_config_globals g = GLOBALS(.backend = "sudo", .sudo = "/usr/bin/sudo");
	const ruas_project_spec specs[] = {
		SPEC(.name = "a", .run_as_user = "t1"),
		SPEC(.name = "b", .run_as_user = "t2", .work_dir = "/srv/b"),
		SPEC(.name = "legacy"),
	};
	struct got f = by_file(&g, specs, 3, 0);
	struct got c = by_code(&g, specs, 3, 0);
	assert_int_equal(f.r, 0);
	assert_int_equal(c.r, 0);
	ruas_report *rf = preflight_fake(f.cfg), *rc = preflight_fake(c.cfg);
	assert_same_report(rf, rc);
	assert_true(ruas_report_has_fatal(rc)); /* the fake refuses every sudo */
	assert_int_equal(ruas_report_project_count(rc), 3);
	assert_true(ruas_report_item_count(rc, 0) > 0);
	assert_string_equal(ruas_report_item_check(rc, 0, 0), "sudo");
	assert_int_equal(ruas_report_item_count(rc, 2), 0); /* legacy: nothing to check */
	ruas_report_free(rf);
	ruas_report_free(rc);
	got_free(&f);
	got_free(&c);

	/* The public entry point, with nothing to run: a legacy project only. */
	c = by_code(NULL, &specs[2], 1, 0);
	ruas_report *rep = NULL;
	assert_int_equal(ruas_preflight(&rep, c.cfg, NULL, &c.err), 0);
	assert_int_equal(ruas_report_project_count(rep), 1);
	assert_false(ruas_report_has_fatal(rep));
	ruas_report_free(rep);
	got_free(&c);
}

static void test_audit_and_deny_as_loaded(void **state)
{
	(void)state;
	const ruas_project_spec sp = SPEC();
	struct got f = by_file(NULL, &sp, 1, 0);
	struct got c = by_code(NULL, &sp, 1, 0);
	ruas_report *rep = NULL;
	ruas_error *ef = NULL, *ec = NULL;
	assert_int_equal(ruas_audit(&rep, f.cfg, NULL, &ef), RUAS_ERR_CONFIG);
	assert_int_equal(ruas_audit(&rep, c.cfg, NULL, &ec), RUAS_ERR_CONFIG);
	assert_string_equal(ruas_error_message(ef), ruas_error_message(ec));
	assert_string_equal(ruas_error_message(ec), NAME " has no people block: nothing to audit");
	ruas_error_free(ef);
	ruas_error_free(ec);
	got_free(&f);
	got_free(&c);

	/* A person's project added to a loaded people block: the same deny list. */
	const ruas_project_spec ps = SPEC(.name = "alice-p", .person = "alice");
	f = by_file(NULL, &ps, 1, 1);
	c = by_code(NULL, &ps, 1, 1);
	char **pf = NULL, **pc = NULL;
	assert_int_equal(ruas_deny_list(&pf, NULL, f.cfg, "alice", NULL), 0);
	assert_int_equal(ruas_deny_list(&pc, NULL, c.cfg, "alice", NULL), 0);
	assert_same_strv("deny list", pf, (const char *const *)pc);
	assert_non_null(pc[0]);
	ruas_strv_free(pf);
	ruas_strv_free(pc);
	got_free(&f);
	got_free(&c);
}

/* ----------------------------------------------------------------- spawn */

struct spawn_fix {
	char dir[128];
	char out[192];
	char sudo[192];
	char record[200];
};

/* The fake sudo records its arguments, one a line, and exits 42 (never saying HELLO). */
static const char fake_sudo[] = "#!/bin/sh\n"
				"for a in \"$@\"; do printf '[%s]\\n' \"$a\"; done > \"$0.rec\"\n"
				"exit 42\n";

static int spawn_setup(void **state)
{
	struct spawn_fix *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	snprintf(f->dir, sizeof f->dir, "/tmp/ruas new 'q\"$d.XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	snprintf(f->out, sizeof f->out, "%s/out", f->dir);
	snprintf(f->sudo, sizeof f->sudo, "%s/fake-sudo", f->dir);
	snprintf(f->record, sizeof f->record, "%s.rec", f->sudo);
	write_file(f->sudo, fake_sudo, 0755);
	*state = f;
	return 0;
}

static int spawn_teardown(void **state)
{
	struct spawn_fix *f = *state;
	rm_rf(f->dir);
	free(f);
	return 0;
}

static int spawn_wait(const ruas_config *cfg, const char *project, const char *const *args,
		      const char *const *env)
{
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = env;
	ruas_child *child = NULL;
	ruas_error *err = NULL;
	int code = -1;
	if (ruas_spawn(&child, cfg, project, args, &o, &err) != 0 ||
	    ruas_child_wait(child, &code, &err) != 0)
		fail_msg("spawn of %s: %s", project, ruas_error_message(err));
	ruas_child_free(child);
	return code;
}

/* A legacy project runs for real: in work_dir, with the arguments byte for byte. */
static void test_spawn_legacy(void **state)
{
	struct spawn_fix *f = *state;
	const char *const cmd[] = {"/bin/sh", "-c",
				   "pwd > \"$OUT\"; for a in \"$@\"; do printf '[%s]\\n' \"$a\"; "
				   "done >> \"$OUT\"; exit 5",
				   "sh-legacy", NULL};
	ruas_project_spec sp = SPEC(.name = "legacy", .work_dir = f->dir, .command = cmd);
	struct got c = by_code(NULL, &sp, 1, 0);
	assert_int_equal(c.r, 0);
	char env_out[256];
	snprintf(env_out, sizeof env_out, "OUT=%s", f->out);
	const char *const env[] = {env_out, NULL};
	const char *const args[] = {INJECTION, "", "a\nb", "$HOME", NULL};
	assert_int_equal(spawn_wait(c.cfg, "legacy", args, env), 5);
	char *got = read_whole_file(f->out);
	struct buf want = BUF_INIT;
	buf_printf(&want, "%s\n[%s]\n[]\n[a\nb]\n[$HOME]\n", f->dir, INJECTION);
	assert_string_equal(got, want.data);
	buf_free(&want);
	free(got);
	got_free(&c);
}

/* With run_as_user, the sudo call is the one a loaded configuration makes. */
static void test_spawn_sudo_as_loaded(void **state)
{
	struct spawn_fix *f = *state;
	const ruas_config_globals g =
		GLOBALS(.backend = "sudo", .sudo = f->sudo, .helper = "/usr/libexec/ruas/ruas-exec");
	const ruas_project_spec sp = SPEC(.name = "agent", .run_as_user = "t1",
					  .command = L("claude", "$HOME", "a\nb"));
	const char *const args[] = {INJECTION, NULL};
	char *rec[2];
	for (int i = 0; i < 2; i++) {
		struct got o = i ? by_code(&g, &sp, 1, 0) : by_file(&g, &sp, 1, 0);
		assert_int_equal(o.r, 0);
		unlink(f->record);
		/* The fake never says HELLO: a start that sudo refused, with its exit status. */
		ruas_spawn_options so = RUAS_SPAWN_OPTIONS_INIT;
		so.env = EMPTY;
		ruas_child *child = (ruas_child *)0x1;
		ruas_error *err = NULL;
		assert_int_equal(ruas_spawn(&child, o.cfg, "agent", args, &so, &err), RUAS_ERR_START);
		assert_null(child);
		assert_int_equal(ruas_error_stage(err), RUAS_STAGE_SUDO);
		assert_non_null(strstr(ruas_error_message(err), "(exit status 42)"));
		ruas_error_free(err);
		rec[i] = read_whole_file(f->record);
		got_free(&o);
	}
	/*
	 * Exactly sudo -n -u t1 -- HELPER --channel-fd 0, both ways: no login
	 * shell, no token, nothing of the payload on the command line, so the
	 * two calls are the same byte for byte.
	 */
	struct buf want = BUF_INIT;
	buf_printf(&want, "[-n]\n[-u]\n[t1]\n[--]\n[/usr/libexec/ruas/ruas-exec]\n"
			  "[--channel-fd]\n[0]\n");
	assert_string_equal(rec[1], want.data);
	assert_string_equal(rec[0], rec[1]);
	buf_free(&want);
	free(rec[0]);
	free(rec[1]);
}

/* ---------------------------------------------------------- people block */

/*
 * A people block built in code (ruas_config_set_people) against the same
 * block as file text: the same refusals with the same messages, the same
 * stored values, and the same preflight, audit, deny list and spawn
 * payload for the projects of its people.
 */
#define M(id, user) {RUAS_PERSON_SPEC_VERSION, id, user}
#define MEMBERS(...)                                                                      \
	.members = (const ruas_person_spec[]){__VA_ARGS__},                                 \
	.member_count = sizeof((const ruas_person_spec[]){__VA_ARGS__}) / sizeof(ruas_person_spec)
/* people_text's paths; its members are AB: alice as t1, bob as t2. */
#define PEOPLE(...)                                                                       \
	{RUAS_PEOPLE_SPEC_VERSION, .worktrees = "/srv/wt", .credentials = "/srv/cred",       \
	 __VA_ARGS__}
#define AB MEMBERS(M("alice", "t1"), M("bob", "t2"))
#define A64 A8 A8 A8 A8 A8 A8 A8 A8

static void people_spec_text(struct buf *b, const ruas_people_spec *ps)
{
	buf_adds(b, "people = {\n");
	put_str(b, "worktrees", ps->worktrees);
	put_str(b, "credentials", ps->credentials);
	put_str(b, "claude_projects", ps->claude_projects);
	put_str(b, "enforce", ps->enforce);
	if (ps->members) {
		buf_adds(b, "  members = (");
		for (size_t i = 0; i < ps->member_count; i++) {
			buf_adds(b, i ? ", {\n" : "{\n");
			put_str(b, "id", ps->members[i].id);
			put_str(b, "run_as_user", ps->members[i].run_as_user);
			buf_adds(b, "}");
		}
		buf_adds(b, ");\n");
	}
	buf_adds(b, "};\n");
}

/* The people block ps and the specs as one file. */
static struct got people_by_file(const ruas_people_spec *ps, const ruas_project_spec *specs,
				 size_t n)
{
	struct buf b = BUF_INIT;
	people_spec_text(&b, ps);
	projects_text(&b, specs, n);
	assert_false(b.oom);
	struct got out = load_text(b.data);
	buf_free(&b);
	return out;
}

/* The same in code: ruas_config_new(), ruas_config_set_people(ps), each spec added. */
static struct got people_by_code(const ruas_people_spec *ps, const ruas_project_spec *specs,
				 size_t n)
{
	struct got out = {0, NULL, NULL};
	ruas_config_options o = options();
	ruas_config_globals named = RUAS_CONFIG_GLOBALS_INIT;
	named.name = NAME;
	assert_int_equal(ruas_config_new(&out.cfg, &named, &o, &out.err), 0);
	out.r = ruas_config_set_people(out.cfg, ps, &out.err);
	/* A refusal leaves the configuration as it was: no people block. */
	if (out.r != 0)
		assert_null(out.cfg->people);
	add_specs(&out, specs, n);
	return out;
}

struct ppcase {
	const char *reason;
	ruas_people_spec ps;
};

static const struct ppcase ppcases[] = {
	{"people: missing key \"worktrees\"", PEOPLE(AB, .worktrees = NULL)},
	{"people: worktrees must be an absolute path", PEOPLE(AB, .worktrees = "srv/wt")},
	{"people: worktrees must be an absolute path", PEOPLE(AB, .worktrees = "")},
	{"people: worktrees must be an absolute path", PEOPLE(AB, .worktrees = "./wt")},
	{"people: worktrees must be an absolute path", PEOPLE(AB, .worktrees = INJECTION)},
	{"people: missing key \"credentials\"", PEOPLE(AB, .credentials = NULL)},
	{"people: credentials must be an absolute path", PEOPLE(AB, .credentials = "~/cred")},
	{"people: credentials must be an absolute path", PEOPLE(AB, .credentials = "")},
	{"people: claude_projects must be an absolute path",
	 PEOPLE(AB, .claude_projects = ".claude/projects")},
	{"people: claude_projects must be an absolute path",
	 PEOPLE(AB, .claude_projects = "$HOME/x")},
	{"people: enforce must be \"none\" or \"bwrap\"", PEOPLE(AB, .enforce = "")},
	{"people: enforce must be \"none\" or \"bwrap\"", PEOPLE(AB, .enforce = "BWRAP")},
	{"people: enforce must be \"none\" or \"bwrap\"", PEOPLE(AB, .enforce = "bwrap ")},
	{"people: enforce must be \"none\" or \"bwrap\"", PEOPLE(AB, .enforce = "yes")},
	{"people: enforce must be \"none\" or \"bwrap\"", PEOPLE(AB, .enforce = INJECTION)},
	{"people: missing key \"members\"", PEOPLE()},
	{"people: a member needs id and run_as_user", PEOPLE(MEMBERS(M(NULL, "t1")))},
	{"people: a member needs id and run_as_user", PEOPLE(MEMBERS(M("alice", NULL)))},
	{"people: a member needs id and run_as_user",
	 PEOPLE(MEMBERS(M("alice", "t1"), M(NULL, NULL)))},
	{"people: member id \"Alice\" is invalid (pattern ^[a-z0-9][a-z0-9_-]*$)",
	 PEOPLE(MEMBERS(M("Alice", "t1")))},
	{"people: member id \"\" is invalid", PEOPLE(MEMBERS(M("", "t1")))},
	{"people: member id \"a b\" is invalid", PEOPLE(MEMBERS(M("a b", "t1")))},
	{"is invalid (pattern", PEOPLE(MEMBERS(M("a\"b", "t1")))},
	{"is invalid (pattern", PEOPLE(MEMBERS(M("$x", "t1")))},
	{"is invalid (pattern", PEOPLE(MEMBERS(M("a$x", "t1")))},
	{"is invalid (pattern", PEOPLE(MEMBERS(M("a\nb", "t1")))},
	{"is invalid (pattern", PEOPLE(MEMBERS(M("a\n", "t1")))},
	{"is invalid (pattern", PEOPLE(MEMBERS(M("-a", "t1")))},
	{"is invalid (pattern", PEOPLE(MEMBERS(M("_a", "t1")))},
	{"is invalid (pattern", PEOPLE(MEMBERS(M("a.b", "t1")))},
	{"is invalid (pattern", PEOPLE(MEMBERS(M("a/b", "t1")))},
	{"is invalid (pattern", PEOPLE(MEMBERS(M("\x1b[2J", "t1")))},
	{"is invalid (pattern", PEOPLE(MEMBERS(M(INJECTION, "t1")))},
	{"is invalid (pattern", PEOPLE(MEMBERS(M(A64 "a", "t1")))},
	{"people: member id \"Bob\" is invalid", PEOPLE(MEMBERS(M("alice", "t1"), M("Bob", "t2")))},
	{"people: duplicate member id \"alice\"",
	 PEOPLE(MEMBERS(M("alice", "t1"), M("alice", "t2")))},
	{"people: duplicate member id \"alice\"",
	 PEOPLE(MEMBERS(M("alice", "t1"), M("bob", "t2"), M("alice", "sup")))},
	{"run_as_user \"sup\" is the supervisor itself", PEOPLE(MEMBERS(M("alice", "sup")))},
	{"run_as_user \"supalias\" has the supervisor's uid 1500",
	 PEOPLE(MEMBERS(M("alice", "t1"), M("bob", "supalias")))},
	{"run_as_user \"root\" is root", PEOPLE(MEMBERS(M("alice", "root")))},
	{"has uid 0", PEOPLE(MEMBERS(M("alice", "zero")))},
	{"must start with a lower-case letter", PEOPLE(MEMBERS(M("alice", "Bob")))},
	{"must start with a lower-case letter", PEOPLE(MEMBERS(M("alice", "#0")))},
	{"may contain only", PEOPLE(MEMBERS(M("alice", "a\nERROR: x")))},
	{"is empty", PEOPLE(MEMBERS(M("alice", "")))},
	{"longer than 32 bytes", PEOPLE(MEMBERS(M("alice", INJECTION + 1)))},
};

static void test_people_refusals_same(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof ppcases / sizeof *ppcases; i++) {
		char what[64];
		snprintf(what, sizeof what, "people case %zu", i);
		struct got f = people_by_file(&ppcases[i].ps, NULL, 0);
		struct got c = people_by_code(&ppcases[i].ps, NULL, 0);
		assert_same_refusal(what, &f, &c, ppcases[i].reason);
		assert_null(c.cfg->people);
		got_free(&f);
		got_free(&c);
	}
}

static void assert_same_people(const struct ruas_people *a, const struct ruas_people *b)
{
	assert_non_null(a);
	assert_non_null(b);
	assert_same_str("worktrees", a->worktrees, b->worktrees);
	assert_same_str("credentials", a->credentials, b->credentials);
	assert_same_str("claude_projects", a->claude_projects, b->claude_projects);
	assert_int_equal(a->enforce_bwrap, b->enforce_bwrap);
	assert_int_equal(a->nmembers, b->nmembers);
	for (size_t i = 0; i < a->nmembers; i++) {
		assert_same_str("id", a->members[i].id, b->members[i].id);
		assert_same_str("run_as_user", a->members[i].run_as_user,
				b->members[i].run_as_user);
		assert_int_equal(b->members[i].line, 0); /* from code: no line */
	}
}

static const ruas_people_spec paccepted[] = {
	PEOPLE(AB),
	PEOPLE(AB, .enforce = "none"),
	PEOPLE(AB, .enforce = "bwrap", .claude_projects = "/srv/cp"),
	/* Not canonical, and every byte a path may hold: kept as given, as from a file. */
	PEOPLE(AB, .worktrees = "/srv//wt/../wt/./", .credentials = "/srv/cred/",
	       .claude_projects = "/a b/\"q\"/$x/\n/" INJECTION),
	PEOPLE(MEMBERS(M(A64, "t1"), M("0-a_b", "t2"), M("z", "t1"))),
	/* members = (); */
	PEOPLE(.members = (const ruas_person_spec[]){M("x", "t1")}, .member_count = 0),
};

static void test_people_accepted_same(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof paccepted / sizeof *paccepted; i++) {
		struct got f = people_by_file(&paccepted[i], NULL, 0);
		struct got c = people_by_code(&paccepted[i], NULL, 0);
		if (f.r != 0 || c.r != 0)
			fail_msg("accepted case %zu: file %s, code %s", i,
				 f.r ? ruas_error_message(f.err) : "ok",
				 c.r ? ruas_error_message(c.err) : "ok");
		assert_same_people(f.cfg->people, c.cfg->people);
		assert_int_equal(c.cfg->people->nmembers, paccepted[i].member_count);
		got_free(&f);
		got_free(&c);
	}
}

/* The strings are copied: the caller's may change as soon as the call returns. */
static void test_people_caller_keeps_ownership(void **state)
{
	(void)state;
	char *wt = strdup("/srv/wt"), *cred = strdup("/srv/cred"), *cp = strdup("/srv/cp");
	char *en = strdup("bwrap"), *id = strdup("alice"), *user = strdup("t1");
	ruas_person_spec m[] = {{RUAS_PERSON_SPEC_VERSION, id, user}};
	ruas_people_spec ps = {RUAS_PEOPLE_SPEC_VERSION, wt, cred, cp, en, m, 1};
	struct got c = people_by_code(&ps, NULL, 0);
	assert_int_equal(c.r, 0);
	char *all[] = {wt, cred, cp, en, id, user, NULL};
	scrub(all);
	const struct ruas_people *pp = c.cfg->people;
	assert_string_equal(pp->worktrees, "/srv/wt");
	assert_string_equal(pp->credentials, "/srv/cred");
	assert_string_equal(pp->claude_projects, "/srv/cp");
	assert_true(pp->enforce_bwrap);
	assert_string_equal(pp->members[0].id, "alice");
	assert_string_equal(pp->members[0].run_as_user, "t1");
	got_free(&c);
}

/* A person exists before a project names it, and a configuration has one people block. */
static void test_people_order(void **state)
{
	(void)state;
	const ruas_people_spec ps = PEOPLE(AB);
	const ruas_project_spec mine = SPEC(.name = "alice-p", .person = "alice");
	const ruas_project_spec plain = SPEC(.name = "plain", .run_as_user = "t2");

	/* Before the block: refused as today, and the block may still come. */
	struct got c = by_code(NULL, &mine, 1, 0);
	assert_int_equal(c.r, RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(c.err), "(there is no people block)"));
	ruas_error_free(c.err);
	c.err = NULL;
	assert_int_equal(ruas_config_set_people(c.cfg, &ps, &c.err), 0);
	c.r = 0;
	add_specs(&c, &mine, 1);
	assert_int_equal(c.r, 0);
	const ruas_project *p = ruas_config_project_find(c.cfg, "alice-p");
	assert_non_null(p);
	assert_string_equal(ruas_project_person(p), "alice");
	assert_string_equal(ruas_project_run_as_user(p), "t1");

	/* Twice: refused, the first block stays. */
	const struct ruas_people *first = c.cfg->people;
	const ruas_people_spec other = PEOPLE(.worktrees = "/other", MEMBERS(M("carol", "t2")));
	assert_int_equal(ruas_config_set_people(c.cfg, &other, &c.err), RUAS_ERR_INVALID);
	assert_string_equal(ruas_error_message(c.err),
			    "ruas_config_set_people: " NAME " already has a people block, and a "
			    "configuration has only one");
	assert_ptr_equal(c.cfg->people, first);
	assert_string_equal(c.cfg->people->worktrees, "/srv/wt");
	got_free(&c);

	/* After a project: refused, saying why; nothing changed. */
	c = by_code(NULL, &plain, 1, 0);
	assert_int_equal(c.r, 0);
	assert_int_equal(ruas_config_set_people(c.cfg, &ps, &c.err), RUAS_ERR_INVALID);
	assert_string_equal(ruas_error_message(c.err),
			    "ruas_config_set_people: " NAME " already has projects; set the people "
			    "block before adding any, since a person must exist before a project "
			    "names it");
	assert_null(c.cfg->people);
	assert_int_equal(ruas_config_project_count(c.cfg), 1);
	got_free(&c);

	/* A loaded file with a people block: refused, its block stays. */
	c = by_code(NULL, NULL, 0, 1);
	first = c.cfg->people;
	assert_int_equal(ruas_config_set_people(c.cfg, &other, &c.err), RUAS_ERR_INVALID);
	assert_non_null(strstr(ruas_error_message(c.err), "already has a people block"));
	assert_ptr_equal(c.cfg->people, first);
	assert_null(people_find(c.cfg, "carol"));
	got_free(&c);

	/* A loaded file without one and without projects: accepted, like a new one. */
	c = load_text("projects = ();\n");
	assert_int_equal(c.r, 0);
	assert_int_equal(ruas_config_set_people(c.cfg, &ps, &c.err), 0);
	add_specs(&c, &mine, 1);
	assert_int_equal(c.r, 0);
	assert_string_equal(ruas_project_person(ruas_config_project_at(c.cfg, 0)), "alice");
	got_free(&c);
}

static void expect_people_invalid(ruas_config *cfg, const ruas_people_spec *ps, const char *msg)
{
	ruas_error *err = NULL;
	assert_int_equal(ruas_config_set_people(cfg, ps, &err), RUAS_ERR_INVALID);
	assert_int_equal(ruas_error_code(err), RUAS_ERR_INVALID);
	assert_string_equal(ruas_error_message(err), msg);
	ruas_error_free(err);
	assert_int_equal(ruas_config_set_people(cfg, ps, NULL), RUAS_ERR_INVALID);
	if (cfg)
		assert_null(cfg->people);
}

static void test_people_bad_arguments(void **state)
{
	(void)state;
	ruas_config *cfg = NULL;
	assert_int_equal(ruas_config_new(&cfg, NULL, NULL, NULL), 0);
	ruas_people_spec ps = PEOPLE(AB);
	expect_people_invalid(NULL, &ps, "ruas_config_set_people: cfg is NULL");
	expect_people_invalid(cfg, NULL, "ruas_config_set_people: spec is NULL");
	ps.version = 2;
	expect_people_invalid(cfg, &ps, "ruas_config_set_people: unknown options version 2");
	ps.version = 0;
	expect_people_invalid(cfg, &ps, "ruas_config_set_people: unknown options version 0");
	ps.version = RUAS_PEOPLE_SPEC_VERSION;
	ruas_person_spec m[] = {M("alice", "t1"), M("bob", "t2")};
	m[1].version = 7;
	ps.members = m;
	expect_people_invalid(cfg, &ps,
			      "ruas_config_set_people: members[1]: unknown options version 7");
	ps.members = NULL;
	ps.member_count = 3;
	expect_people_invalid(cfg, &ps,
			      "ruas_config_set_people: members is NULL but member_count is 3");
	/* The _INIT macros are what an embedder starts from. */
	ruas_people_spec init = RUAS_PEOPLE_SPEC_INIT;
	ruas_person_spec one = RUAS_PERSON_SPEC_INIT;
	one.id = "alice";
	one.run_as_user = "t1";
	init.worktrees = "/srv/wt";
	init.credentials = "/srv/cred";
	init.members = &one;
	init.member_count = 1;
	assert_int_equal(ruas_config_set_people(cfg, &init, NULL), 0);
	assert_int_equal(cfg->people->nmembers, 1);
	assert_false(cfg->people->enforce_bwrap);
	assert_null(cfg->people->claude_projects);
	ruas_config_free(cfg);
}

/* ------------------------------------- a people block's checks, from code */

/*
 * A tree of people with real directories (ruas_deny_list reads them):
 * wt/{alice,bob,carol}/repo, cred, and cp with a Claude Code directory for
 * each person's repo. carol shares alice's user t1.
 */
struct ptree {
	char dir[128];
	char wt[160], cred[160], cp[160];
	char noncanon[176];
	char work[3][192];
};

static void mkdir_at(const char *base, const char *rel)
{
	char p[512];
	snprintf(p, sizeof p, "%s%s%s", base, *rel ? "/" : "", rel);
	if (mkdir(p, 0755) != 0)
		fail_msg("mkdir %s: %m", p);
}

static int ptree_setup(void **state)
{
	static const char *const ids[] = {"alice", "bob", "carol"};
	struct ptree *t = calloc(1, sizeof *t);
	if (!t)
		return -1;
	snprintf(t->dir, sizeof t->dir, "/tmp/ruas people 'q\"$d.XXXXXX");
	if (!mkdtemp(t->dir)) {
		free(t);
		return -1;
	}
	snprintf(t->wt, sizeof t->wt, "%s/wt", t->dir);
	snprintf(t->cred, sizeof t->cred, "%s/cred", t->dir);
	snprintf(t->cp, sizeof t->cp, "%s/cp", t->dir);
	snprintf(t->noncanon, sizeof t->noncanon, "%s//wt/./", t->dir);
	mkdir_at(t->wt, "");
	mkdir_at(t->cred, "");
	mkdir_at(t->cp, "");
	for (int i = 0; i < 3; i++) {
		mkdir_at(t->wt, ids[i]);
		snprintf(t->work[i], sizeof t->work[i], "%s/%s/repo", t->wt, ids[i]);
		mkdir_at(t->work[i], "");
		char *slug = claude_slug(t->work[i]);
		assert_non_null(slug);
		mkdir_at(t->cp, slug);
		free(slug);
	}
	*state = t;
	return 0;
}

static int ptree_teardown(void **state)
{
	struct ptree *t = *state;
	rm_rf(t->dir);
	free(t);
	return 0;
}

/* The tree's people block: alice and carol as t1, bob as t2. */
static ruas_people_spec ptree_people(const struct ptree *t, const ruas_person_spec *m,
				     const char *enforce)
{
	ruas_people_spec ps = {RUAS_PEOPLE_SPEC_VERSION, t->wt, t->cred, t->cp, enforce, m, 3};
	return ps;
}

static const ruas_person_spec ptree_members[] = {M("alice", "t1"), M("bob", "t2"),
						 M("carol", "t1")};

static void assert_same_deny(const ruas_config *a, const ruas_config *b, const char *id)
{
	char **pa = NULL, **pb = NULL, **wa = NULL, **wb = NULL, *ja = NULL, *jb = NULL;
	assert_int_equal(ruas_deny_list(&pa, &wa, a, id, NULL), 0);
	assert_int_equal(ruas_deny_list(&pb, &wb, b, id, NULL), 0);
	assert_same_strv("deny list", pa, (const char *const *)pb);
	assert_same_strv("deny warnings", wa, (const char *const *)wb);
	assert_int_equal(ruas_deny_claude_settings(&ja, a, id, NULL), 0);
	assert_int_equal(ruas_deny_claude_settings(&jb, b, id, NULL), 0);
	assert_string_equal(ja, jb);
	ruas_strv_free(pa);
	ruas_strv_free(pb);
	ruas_strv_free(wa);
	ruas_strv_free(wb);
	ruas_free(ja);
	ruas_free(jb);
}

static void test_people_deny_same(void **state)
{
	struct ptree *t = *state;
	static const char *const ids[] = {"alice", "bob", "carol"};
	for (int canon = 0; canon < 2; canon++) {
		ruas_people_spec ps = ptree_people(t, ptree_members, NULL);
		if (!canon)
			ps.worktrees = t->noncanon;
		struct got f = people_by_file(&ps, NULL, 0);
		struct got c = people_by_code(&ps, NULL, 0);
		assert_int_equal(f.r, 0);
		assert_int_equal(c.r, 0);
		for (int i = 0; i < 3; i++)
			assert_same_deny(f.cfg, c.cfg, ids[i]);
		/*
		 * What the list holds, from code: the credentials and bob's things
		 * (his Claude directory only where the scope is spelt as the
		 * directory was named, as from a file).
		 */
		char **paths = NULL;
		assert_int_equal(ruas_deny_list(&paths, NULL, c.cfg, "alice", NULL), 0);
		char *bob_cp = claude_slug(t->work[1]);
		int cred = 0, bob = 0, alice = 0;
		for (char **e = paths; *e; e++) {
			cred |= strcmp(*e, t->cred) == 0;
			bob |= strstr(*e, bob_cp) != NULL;
			alice |= strstr(*e, "/alice") != NULL;
		}
		assert_true(cred && !alice);
		assert_int_equal(bob, canon);
		free(bob_cp);
		ruas_strv_free(paths);
		/* An unknown person: refused the same way. */
		ruas_error *ef = NULL, *ec = NULL;
		assert_int_equal(ruas_deny_list(&paths, NULL, f.cfg, "mallory", &ef),
				 ruas_deny_list(&paths, NULL, c.cfg, "mallory", &ec));
		assert_string_equal(ruas_error_message(ef), ruas_error_message(ec));
		ruas_error_free(ef);
		ruas_error_free(ec);
		got_free(&f);
		got_free(&c);
	}
}

/*
 * A helper that reports every dir as escaping the scope it was given,
 * bubblewrap as failing, and every probe as readable, in one REPORT on the
 * channel; it records what each call asked (user, flags, dirs and scopes,
 * probes).
 */
struct people_fake {
	pthread_mutex_t lock;
	struct buf asked;
};

static void people_answer(struct buf *chan, const struct payload *p)
{
	struct buf o = BUF_INIT;
	gid_t none[1] = {0};
	report_begin(&o, REPORT_FROM_HELPER);
	report_put_esc(&o, 0, 1, 1, "no", 0);
	report_put_esc(&o, 1, 1, 1, "no", 0);
	report_put_gids(&o, 65534, none, 0);
	if (p->check_flags & CHECK_USERNS)
		report_put_lifetime(&o, 0, "");
	for (size_t i = 0; i < p->ndirs; i++) {
		struct dir_result d = {.state = DIR_ESCAPE, .path = p->dirs[i].scope};
		report_put_dir(&o, i, &d);
	}
	if (p->check_flags & CHECK_BWRAP)
		report_put_bwrap(&o, 1, "bwrap: no");
	for (size_t k = 0; k < p->nprobes; k++)
		report_put_probe(&o, k, PROBE_READABLE);
	report_put_anchors(&o, 0);
	for (size_t k = 0; k < p->ncommands; k++)
		report_put_cmd(&o, k, CMD_FOUND, "/usr/bin/agent", "/usr/bin:/bin");
	assert_false(o.oom);
	/* Framed as channel.h says: the body's length, big-endian, and the type. */
	unsigned char head[5] = {(unsigned char)(o.len >> 24), (unsigned char)(o.len >> 16),
				 (unsigned char)(o.len >> 8), (unsigned char)o.len, CHANNEL_REPORT};
	buf_add(chan, head, sizeof head);
	buf_add(chan, o.data, o.len);
	buf_free(&o);
}

static int people_run(void *ctx, const struct run_request *req, struct run_result *res)
{
	struct people_fake *fk = ctx;
	struct payload p;
	const char *why = NULL;
	memset(res, 0, sizeof *res);
	if (!req->channel ||
	    payload_decode(req->channel->payload->data, req->channel->payload->len, &p, &why) != 0) {
		buf_adds(&res->err, "sudo: a password is required\n");
		res->wait_status = 1 << 8;
		return 0;
	}
	people_answer(&res->chan, &p);
	pthread_mutex_lock(&fk->lock);
	size_t argc = 0;
	while (req->argv[argc])
		argc++;
	buf_printf(&fk->asked, "call %s flags %u\n", argc > 3 ? req->argv[3] : "?",
		   p.check_flags);
	for (size_t i = 0; i < p.ndirs; i++)
		buf_printf(&fk->asked, " dir %s scope %s\n", p.dirs[i].work_dir, p.dirs[i].scope);
	for (size_t k = 0; k < p.nprobes; k++)
		buf_printf(&fk->asked, " probe %s\n", p.probes[k]);
	pthread_mutex_unlock(&fk->lock);
	payload_free(&p);
	return 0;
}

/* Preflight (audit when `audit`) through the fake, one call at a time; *asked what it asked. */
static ruas_report *people_check(const ruas_config *cfg, int audit, char **asked)
{
	struct people_fake fk;
	memset(&fk, 0, sizeof fk);
	pthread_mutex_init(&fk.lock, NULL);
	struct runner rn = {people_run, &fk, 0, "/nonexistent/ruas-test-fs-root"};
	ruas_report *rep = NULL;
	ruas_error *err = NULL;
	int r = audit ? audit_run(&rep, cfg, 1, &rn, &err) : preflight_run(&rep, cfg, 1, 0, &rn, &err);
	if (r != 0)
		fail_msg("%s: %s", audit ? "audit_run" : "preflight_run", ruas_error_message(err));
	pthread_mutex_destroy(&fk.lock);
	assert_false(fk.asked.oom);
	*asked = buf_detach(&fk.asked);
	return rep;
}

/* Whether project (or person) i has an item of `check` at `severity` (NONE: any). */
static int has_item(const ruas_report *rep, size_t i, const char *check, ruas_severity severity)
{
	for (size_t k = 0; k < ruas_report_item_count(rep, i); k++)
		if (strcmp(ruas_report_item_check(rep, i, k), check) == 0 &&
		    (severity == RUAS_SEVERITY_NONE ||
		     ruas_report_item_severity(rep, i, k) == severity))
			return 1;
	return 0;
}

/* The tree's projects: one per person, each in its repo, on the sudo backend. */
static void ptree_specs(const struct ptree *t, ruas_project_spec sp[3])
{
	static const char *const ids[] = {"alice", "bob", "carol"};
	for (int i = 0; i < 3; i++) {
		ruas_project_spec s = SPEC(.person = ids[i], .work_dir = t->work[i],
					   .backend = "sudo");
		s.name = ids[i];
		sp[i] = s;
	}
}

static void test_people_preflight_and_audit_same(void **state)
{
	struct ptree *t = *state;
	ruas_people_spec ps = ptree_people(t, ptree_members, "bwrap");
	ruas_project_spec sp[3];
	ptree_specs(t, sp);
	struct got f = people_by_file(&ps, sp, 3);
	struct got c = people_by_code(&ps, sp, 3);
	assert_int_equal(f.r, 0);
	assert_int_equal(c.r, 0);
	for (int audit = 0; audit < 2; audit++) {
		char *af, *ac;
		ruas_report *rf = people_check(f.cfg, audit, &af);
		ruas_report *rc = people_check(c.cfg, audit, &ac);
		assert_same_report(rf, rc);
		/* The helper was asked the same: each person's scope, bwrap, the probes. */
		assert_string_equal(af, ac);
		char scope[256];
		snprintf(scope, sizeof scope, "scope %s/alice\n", t->wt);
		if (!audit) {
			assert_non_null(strstr(ac, scope));
			for (size_t i = 0; i < 3; i++) {
				assert_true(has_item(rc, i, "containment", RUAS_SEVERITY_FATAL));
				assert_true(has_item(rc, i, "bwrap", RUAS_SEVERITY_FATAL));
			}
			/* alice and carol share t1; bob is alone on t2. */
			assert_true(has_item(rc, 0, "people", RUAS_SEVERITY_WARNING));
			assert_false(has_item(rc, 1, "people", RUAS_SEVERITY_WARNING));
			assert_true(has_item(rc, 2, "people", RUAS_SEVERITY_WARNING));
		} else {
			assert_int_equal(ruas_report_project_count(rc), 3); /* one per person */
			assert_string_equal(ruas_report_project_name(rc, 1), "bob");
			assert_true(has_item(rc, 0, "people", RUAS_SEVERITY_WARNING));
			assert_false(has_item(rc, 1, "people", RUAS_SEVERITY_NONE));
			/* As root the audit logs in through PAM, which the fake does not answer. */
			assert_true(has_item(rc, 1, "audit", RUAS_SEVERITY_NONE));
		}
		ruas_report_free(rf);
		ruas_report_free(rc);
		free(af);
		free(ac);
	}
	got_free(&f);
	got_free(&c);
}

/* What a spawn of a person's project sends ruas-exec: the scope, the person, bwrap's deny list. */
static void test_people_spawn_payload_same(void **state)
{
	struct ptree *t = *state;
	ruas_people_spec ps = ptree_people(t, ptree_members, "bwrap");
	ruas_project_spec sp[3];
	ptree_specs(t, sp);
	struct got o[2] = {people_by_file(&ps, sp, 3), people_by_code(&ps, sp, 3)};
	struct deny_files x[2];
	struct payload pl[2];
	for (int i = 0; i < 2; i++) {
		assert_int_equal(o[i].r, 0);
		const struct ruas_project *p = ruas_config_project_find(o[i].cfg, "alice");
		ruas_error *err = NULL;
		int r = deny_files_build(o[i].cfg, p, &x[i], &err);
		if (r != 0 && ruas_error_errno(err) == EOPNOTSUPP) {
			ruas_error_free(err);
			deny_files_free(&x[i]);
			for (int k = 0; k < i; k++) {
				exec_payload_free(&pl[k]);
				deny_files_free(&x[k]);
			}
			got_free(&o[0]);
			got_free(&o[1]);
			skip(); /* /tmp has no POSIX ACLs: deny files cannot be made here */
		}
		if (r != 0)
			fail_msg("deny_files_build: %s", ruas_error_message(err));
		static const struct account acct = {(char *)"alice", (char *)"/home/alice",
						    (char *)"/bin/sh", 1000, 1000};
		assert_int_equal(exec_payload_build(o[i].cfg, p, &acct, NULL, EMPTY, NULL, &x[i],
						    &pl[i]),
				 0);
	}
	char scope[256];
	snprintf(scope, sizeof scope, "%s/alice", t->wt);
	assert_string_equal(pl[1].scope, scope);
	assert_string_equal(pl[0].scope, pl[1].scope);
	assert_string_equal(pl[1].person, "alice");
	assert_string_equal(pl[0].work_dir, pl[1].work_dir);
	assert_int_equal(pl[0].exec_flags, pl[1].exec_flags);
	assert_int_equal(pl[1].exec_flags, EXEC_PRIVATE_TMP | EXEC_BWRAP);
	assert_same_strv("bwrap deny", pl[0].deny, (const char *const *)pl[1].deny);
	assert_true(pl[1].ndeny > 0);
	for (int i = 0; i < 2; i++) {
		exec_payload_free(&pl[i]);
		deny_files_free(&x[i]);
		got_free(&o[i]);
	}
}

int main(int argc, char **argv)
{
	private_state();
	nss_env_reexec(argc, argv, passwd_lines, group_lines);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_project_refusals_same),
		cmocka_unit_test(test_env_rules_refused_same),
		cmocka_unit_test(test_global_refusals_same),
		cmocka_unit_test(test_hostile_values_byte_exact),
		cmocka_unit_test(test_every_key_same_as_file),
		cmocka_unit_test(test_cgroup_keys),
		cmocka_unit_test(test_limits_from_code),
		cmocka_unit_test(test_require_command),
		cmocka_unit_test(test_claude_api_key),
		cmocka_unit_test(test_globals_version_1),
		cmocka_unit_test(test_defaults_as_file),
		cmocka_unit_test(test_duplicate_name),
		cmocka_unit_test(test_missing_user_refused),
		cmocka_unit_test(test_pointers_stable),
		cmocka_unit_test(test_caller_keeps_ownership),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_preflight_as_loaded),
		cmocka_unit_test(test_audit_and_deny_as_loaded),
		cmocka_unit_test_setup_teardown(test_spawn_legacy, spawn_setup, spawn_teardown),
		cmocka_unit_test_setup_teardown(test_spawn_sudo_as_loaded, spawn_setup,
						spawn_teardown),
		cmocka_unit_test(test_people_refusals_same),
		cmocka_unit_test(test_people_accepted_same),
		cmocka_unit_test(test_people_caller_keeps_ownership),
		cmocka_unit_test(test_people_order),
		cmocka_unit_test(test_people_bad_arguments),
		cmocka_unit_test_setup_teardown(test_people_deny_same, ptree_setup, ptree_teardown),
		cmocka_unit_test_setup_teardown(test_people_preflight_and_audit_same, ptree_setup,
						ptree_teardown),
		cmocka_unit_test_setup_teardown(test_people_spawn_payload_same, ptree_setup,
						ptree_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
