/* SPDX-License-Identifier: ISC */
/*
 * test_credentials.c - issue 29's credentials, in the library: the
 * credentials and git_hosts keys (src/lib/config/credentials.c,
 * git_hosts.c) from a file and from code, a project's own replacing the
 * global ones; the sources (src/lib/cred/source.c: a file's owner and
 * mode, a command's status, stderr and ttl, one line); and one request as
 * the server answers it (src/lib/cred/serve.c) on a socketpair, with the
 * init's verdict given by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config_int.h"
#include "cred/serve.h"
#include "cred/source.h"
#include "proc.h"
#include "ruas.h"

#define NAME "creds.conf"

static ruas_config *load(const char *text, ruas_error **err)
{
	ruas_config *cfg = NULL;
	int r = ruas_config_load_buffer(&cfg, text, strlen(text), NAME, NULL, err);
	return r == 0 ? cfg : NULL;
}

static const char base[] =
	"credentials = ( { name = \"anthropic\"; from_env = \"ANTHROPIC_API_KEY\"; },\n"
	"  { name = \"github\"; from_command = [\"gh\", \"auth\", \"token\"]; ttl = 300; } );\n"
	"git_hosts = ( { host = \"github.com\"; credential = \"github\"; } );\n";

static void test_file_global_and_project(void **state)
{
	(void)state;
	char text[2048];
	snprintf(text, sizeof text,
		 "%sprojects = ( { name = \"a\"; run_as_user = \"nobody\"; work_dir = \"/tmp\"; "
		 "command = [\"true\"]; },\n"
		 "  { name = \"b\"; run_as_user = \"nobody\"; work_dir = \"/tmp\"; command = "
		 "[\"true\"];\n"
		 "    credentials = ( { name = \"github\"; from_file = \"/etc/ruas/gh\"; },\n"
		 "      { name = \"deploy\"; from_file = \"/etc/ruas/deploy\"; } );\n"
		 "    git_hosts = ( { host = \"github.com\"; credential = \"deploy\"; username = "
		 "\"bot\"; },\n"
		 "      { host = \"127.0.0.1:8080\"; credential = \"deploy\"; protocol = \"http\"; } "
		 "); } );\n",
		 base);
	ruas_error *err = NULL;
	ruas_config *cfg = load(text, &err);
	if (!cfg)
		fail_msg("refused: %s", ruas_error_message(err));
	const struct ruas_project *a = ruas_config_project_find(cfg, "a");
	const struct ruas_project *b = ruas_config_project_find(cfg, "b");
	assert_int_equal(a->credentials.n, 2);
	assert_int_equal(a->credentials.v[0].kind, CRED_ENV);
	assert_string_equal(a->credentials.v[0].env, "ANTHROPIC_API_KEY");
	assert_int_equal(a->credentials.v[1].kind, CRED_COMMAND);
	assert_string_equal(a->credentials.v[1].argv[2], "token");
	assert_null(a->credentials.v[1].argv[3]);
	assert_int_equal(a->credentials.v[1].ttl, 300);
	assert_int_equal(a->git_hosts.n, 1);
	assert_string_equal(a->git_hosts.v[0].username, "x-access-token");
	assert_int_equal(a->git_hosts.v[0].http, 0);
	/* b: anthropic from the top, its own github instead of the top's, and deploy. */
	assert_int_equal(b->credentials.n, 3);
	assert_string_equal(b->credentials.v[0].name, "anthropic");
	assert_string_equal(b->credentials.v[1].name, "github");
	assert_int_equal(b->credentials.v[1].kind, CRED_FILE);
	assert_string_equal(b->credentials.v[1].file, "/etc/ruas/gh");
	assert_string_equal(b->credentials.v[2].name, "deploy");
	assert_int_equal(b->git_hosts.n, 2);
	assert_string_equal(b->git_hosts.v[0].credential, "deploy");
	assert_string_equal(b->git_hosts.v[0].username, "bot");
	assert_int_equal(b->git_hosts.v[1].http, 1);
	ruas_config_free(cfg);
}

/* The same refusal, with the same message, from a file and from code. */
static void refused_both(const char *file_entry, const ruas_credential_spec *spec,
			 const char *want)
{
	char text[1024];
	snprintf(text, sizeof text, "credentials = ( %s );\n", file_entry);
	ruas_error *err = NULL;
	ruas_config *cfg = load(text, &err);
	if (cfg)
		fail_msg("accepted: %s", file_entry);
	if (!strstr(ruas_error_message(err), want))
		fail_msg("file: \"%s\", expected \"%s\"", ruas_error_message(err), want);
	ruas_error_free(err);
	err = NULL;
	ruas_config_globals g = RUAS_CONFIG_GLOBALS_INIT;
	g.credentials = spec;
	g.credential_count = 1;
	assert_int_equal(ruas_config_new(&cfg, &g, NULL, &err), RUAS_ERR_CONFIG);
	if (!strstr(ruas_error_message(err), want))
		fail_msg("code: \"%s\", expected \"%s\"", ruas_error_message(err), want);
	ruas_error_free(err);
}

static void test_refusals_same_from_code(void **state)
{
	(void)state;
	static const char *const cmd[] = {"gh", NULL};
	static const char *const empty[] = {NULL};
	ruas_credential_spec two = {"x", "A", NULL, "/f", RUAS_UNSET};
	refused_both("{ name = \"x\"; from_env = \"A\"; from_file = \"/f\"; }", &two,
		     "\"x\" needs exactly one of from_env, from_command and from_file");
	ruas_credential_spec none = {"x", NULL, NULL, NULL, RUAS_UNSET};
	refused_both("{ name = \"x\"; }", &none, "needs exactly one of");
	ruas_credential_spec ttl = {"x", "A", NULL, NULL, 5};
	refused_both("{ name = \"x\"; from_env = \"A\"; ttl = 5; }", &ttl,
		     "ttl is only for a from_command credential");
	ruas_credential_spec big = {"x", NULL, cmd, NULL, 86401};
	refused_both("{ name = \"x\"; from_command = [\"gh\"]; ttl = 86401; }", &big,
		     "ttl must be 0 to 86400 seconds");
	ruas_credential_spec bad = {"Bad", "A", NULL, NULL, RUAS_UNSET};
	refused_both("{ name = \"Bad\"; from_env = \"A\"; }", &bad, "name \"Bad\" is invalid");
	ruas_credential_spec rel = {"x", NULL, NULL, "rel", RUAS_UNSET};
	refused_both("{ name = \"x\"; from_file = \"rel\"; }", &rel, "must be an absolute path");
	ruas_credential_spec env = {"x", "A-B", NULL, NULL, RUAS_UNSET};
	refused_both("{ name = \"x\"; from_env = \"A-B\"; }", &env, "is not a variable name");
	ruas_credential_spec noargs = {"x", NULL, empty, NULL, RUAS_UNSET};
	refused_both("{ name = \"x\"; from_command = []; }", &noargs,
		     "from_command must not be empty");
}

/* A from_env that the allowlist would copy into the agent's environment anyway: refused. */
static void test_from_env_not_also_allowlisted(void **state)
{
	(void)state;
	static const char text[] =
		"credentials = ( { name = \"anthropic\"; from_env = \"ANTHROPIC_API_KEY\"; } );\n"
		"projects = ( { name = \"a\"; run_as_user = \"nobody\"; work_dir = \"/tmp\"; "
		"command = [\"true\"];\n  env_allowlist = [\"ANTHROPIC_API_KEY\"]; } );\n";
	ruas_error *err = NULL;
	assert_null(load(text, &err));
	assert_non_null(strstr(ruas_error_message(err),
			       "credential \"anthropic\": from_env ANTHROPIC_API_KEY is also in "
			       "env_allowlist, so the agent would get a copy of the value in its "
			       "environment anyway; remove ANTHROPIC_API_KEY from env_allowlist"));
	ruas_error_free(err);
}

static void test_code_built(void **state)
{
	(void)state;
	static const char *const cmd[] = {"printf", "v", NULL};
	ruas_credential_spec c[] = {{"tok", NULL, cmd, NULL, 60}};
	ruas_git_host_spec h[] = {{"example.org", "tok", "me", NULL}};
	ruas_config_globals g = RUAS_CONFIG_GLOBALS_INIT;
	g.credentials = c;
	g.credential_count = 1;
	g.git_hosts = h;
	g.git_host_count = 1;
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	if (ruas_config_new(&cfg, &g, NULL, &err) != 0)
		fail_msg("refused: %s", ruas_error_message(err));
	assert_int_equal(cfg->credentials.n, 1);
	assert_int_equal(cfg->credentials.v[0].ttl, 60);
	assert_string_equal(cfg->git_hosts.v[0].username, "me");
	ruas_config_free(cfg);
	ruas_git_host_spec bad[] = {{"example.org", "tok", "me;id", NULL}};
	g.git_hosts = bad;
	assert_int_equal(ruas_config_new(&cfg, &g, NULL, &err), RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(err), "git_hosts: username \"me;id\" is invalid"));
	ruas_error_free(err);
}

/* ------------------------------------------------------------------ sources */

static char dir[] = "/tmp/ruas-cred-test.XXXXXX";

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static int value_of(struct cred_source *src, const char *const *env, char **v, char *why,
		    size_t whysz)
{
	struct cred_slot slot;
	assert_int_equal(cred_slot_init(&slot, src, env), 0);
	int r = cred_slot_value(&slot, env, -1, v, why, whysz);
	cred_slot_clear(&slot);
	return r;
}

static void test_from_file(void **state)
{
	(void)state;
	char path[256], link[256], why[512];
	char *v = NULL;
	snprintf(path, sizeof path, "%s/secret", dir);
	snprintf(link, sizeof link, "%s/link", dir);
	write_file(path, "s3cret\n", 0600);
	struct cred_source src = {(char *)"f", CRED_FILE, NULL, NULL, path, 0, 0};
	assert_int_equal(value_of(&src, NULL, &v, why, sizeof why), 0);
	assert_string_equal(v, "s3cret");
	cred_value_free(v);
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(value_of(&src, NULL, &v, why, sizeof why), -1);
	assert_non_null(strstr(why, "may be read or written by others than its owner (mode 0640); "
				    "fix: chmod 600"));
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(symlink(path, link), 0);
	src.file = link;
	assert_int_equal(value_of(&src, NULL, &v, why, sizeof why), -1);
	assert_non_null(strstr(why, "cannot open from_file"));
	src.file = path;
	write_file(path, "two\nlines\n", 0600);
	assert_int_equal(value_of(&src, NULL, &v, why, sizeof why), -1);
	assert_non_null(strstr(why, "not one line"));
	write_file(path, "\n", 0600);
	assert_int_equal(value_of(&src, NULL, &v, why, sizeof why), -1);
	assert_non_null(strstr(why, "the value is empty"));
	write_file(path, "crlf\r\n", 0600);
	assert_int_equal(value_of(&src, NULL, &v, why, sizeof why), 0);
	assert_string_equal(v, "crlf");
	cred_value_free(v);
	unlink(link);
	unlink(path);
}

static void test_from_env(void **state)
{
	(void)state;
	static const char *const env[] = {"A=1", "KEY=value with spaces", "KEYS=no", NULL};
	char why[512];
	char *v = NULL;
	struct cred_source src = {(char *)"e", CRED_ENV, (char *)"KEY", NULL, NULL, 0, 0};
	assert_int_equal(value_of(&src, env, &v, why, sizeof why), 0);
	assert_string_equal(v, "value with spaces");
	cred_value_free(v);
	src.env = (char *)"MISSING";
	assert_int_equal(value_of(&src, env, &v, why, sizeof why), -1);
	assert_non_null(strstr(why, "the variable MISSING was not set"));
}

static void test_from_command(void **state)
{
	(void)state;
	char count[256], script[700], why[512];
	char *v = NULL;
	snprintf(count, sizeof count, "%s/count", dir);
	snprintf(script, sizeof script,
		 "n=$(cat %s 2>/dev/null || echo 0); n=$((n+1)); echo $n > %s; echo tok-$n", count,
		 count);
	static const char *const env[] = {"PATH=/usr/bin:/bin", NULL};
	char *argv[] = {(char *)"sh", (char *)"-c", script, NULL};
	struct cred_source src = {(char *)"c", CRED_COMMAND, NULL, argv, NULL, 300, 0};
	struct cred_slot slot;
	assert_int_equal(cred_slot_init(&slot, &src, env), 0);
	assert_int_equal(cred_slot_value(&slot, env, -1, &v, why, sizeof why), 0);
	assert_string_equal(v, "tok-1");
	cred_value_free(v);
	/* Kept for ttl: the command does not run again. */
	assert_int_equal(cred_slot_value(&slot, env, -1, &v, why, sizeof why), 0);
	assert_string_equal(v, "tok-1");
	cred_value_free(v);
	/* Expired: it does. */
	slot.expires_ms = 0;
	assert_int_equal(cred_slot_value(&slot, env, -1, &v, why, sizeof why), 0);
	assert_string_equal(v, "tok-2");
	cred_value_free(v);
	cred_slot_clear(&slot);
	char *fail[] = {(char *)"sh", (char *)"-c",
			(char *)"echo 'vault sealed \"x\"' >&2; echo second >&2; exit 3", NULL};
	struct cred_source bad = {(char *)"c", CRED_COMMAND, NULL, fail, NULL, 0, 0};
	assert_int_equal(value_of(&bad, env, &v, why, sizeof why), -1);
	assert_string_equal(why, "from_command exited with status 3; its stderr: \"vault sealed "
				 "\\\"x\\\"\"");
	char *nope[] = {(char *)"ruas-no-such-program", NULL};
	struct cred_source missing = {(char *)"c", CRED_COMMAND, NULL, nope, NULL, 0, 0};
	assert_int_equal(value_of(&missing, env, &v, why, sizeof why), -1);
	assert_non_null(strstr(why, "cannot run from_command \"ruas-no-such-program\""));
	unlink(count);
}

/*
 * The review's attacks on from_command: a command that closes its output
 * and stays is killed when the server stops (not waited for); a supervisor
 * that ignores SIGCHLD never takes a failed command's output; the command
 * runs in /, and is never found through a relative PATH entry (the
 * supervisor's working directory, which an agent may write).
 */
static void test_from_command_hostile(void **state)
{
	(void)state;
	char why[512], planted[256];
	char *v = NULL;
	static const char *const env[] = {"PATH=/usr/bin:/bin", NULL};
	char *stay[] = {(char *)"sh", (char *)"-c", (char *)"echo tok; exec >&- 2>&-; sleep 600",
			NULL};
	struct cred_source src = {(char *)"c", CRED_COMMAND, NULL, stay, NULL, 0, 0};
	struct cred_slot slot;
	int stop = eventfd(1, EFD_CLOEXEC); /* already readable: the server is stopping */
	assert_true(stop >= 0);
	assert_int_equal(cred_slot_init(&slot, &src, env), 0);
	long long t0 = monotonic_ms();
	assert_int_equal(cred_slot_value(&slot, env, stop, &v, why, sizeof why), -1);
	assert_true(monotonic_ms() - t0 < 20000); /* a bound far from the command's 600 s */
	assert_non_null(strstr(why, "was killed"));
	cred_slot_clear(&slot);
	close(stop);
	/* SIGCHLD ignored: the exit status cannot be had, so the output is not taken. */
	char *fails[] = {(char *)"sh", (char *)"-c", (char *)"echo tok; exit 3", NULL};
	struct cred_source bad = {(char *)"c", CRED_COMMAND, NULL, fails, NULL, 0, 0};
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	sigaction(SIGCHLD, &ign, &old);
	assert_int_equal(value_of(&bad, env, &v, why, sizeof why), -1);
	sigaction(SIGCHLD, &old, NULL);
	assert_non_null(strstr(why, "from_command's end could not be seen"));
	/* In /, whatever the supervisor's working directory. */
	char *pwd[] = {(char *)"pwd", NULL};
	struct cred_source where = {(char *)"c", CRED_COMMAND, NULL, pwd, NULL, 0, 0};
	assert_int_equal(value_of(&where, env, &v, why, sizeof why), 0);
	assert_string_equal(v, "/");
	cred_value_free(v);
	/* A program planted in the working directory, and a PATH with an empty entry. */
	snprintf(planted, sizeof planted, "%s/ruas-planted", dir);
	write_file(planted, "#!/bin/sh\necho planted-token\n", 0755);
	char cwd[4096];
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(dir), 0);
	static const char *const loose[] = {"PATH=/nonexistent::.", NULL};
	char *plant[] = {(char *)"ruas-planted", NULL};
	struct cred_source pl = {(char *)"c", CRED_COMMAND, NULL, plant, NULL, 0, 0};
	int r = value_of(&pl, loose, &v, why, sizeof why);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(r, -1);
	assert_non_null(strstr(why, "not found in the absolute directories of the supervisor's PATH"));
	unlink(planted);
}

/* ------------------------------------------------------------------ one request */

static int callback(const char *project, const char *name, char *value, size_t size,
		    void *payload)
{
	(*(int *)payload)++;
	assert_string_equal(project, "p");
	if (strcmp(name, "cb") == 0)
		return snprintf(value, size, "from-callback");
	if (strcmp(name, "cbfail") == 0)
		return -1;
	return 0;
}

/* Sends req on one end, has cs serve the other with inner_pid, returns the answer. */
static char *ask(struct cred_serve *cs, const char *req, unsigned long inner_pid)
{
	int sv[2];
	static char answer[256];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	assert_int_equal(write(sv[0], req, strlen(req)), (ssize_t)strlen(req));
	cred_serve_conn(cs, sv[1], inner_pid);
	close(sv[1]);
	ssize_t n = read(sv[0], answer, sizeof answer - 1);
	close(sv[0]);
	answer[n > 0 ? n : 0] = '\0';
	return answer;
}

static void test_serve(void **state)
{
	(void)state;
	struct cred_source list[] = {{(char *)"k", CRED_ENV, (char *)"K", NULL, NULL, 0, 0}};
	struct ruas_project p;
	memset(&p, 0, sizeof p);
	p.name = (char *)"p";
	p.run_as_user = (char *)"t";
	p.credentials.v = list;
	p.credentials.n = 1;
	static const char *const env[] = {"K=kv", NULL};
	char name[64];
	int helper = -1, calls = 0;
	struct cred_serve *cs = cred_serve_new(&p, getuid(), env, callback, &calls, name, &helper);
	assert_non_null(cs);
	assert_true(strncmp(name, "ruas-credentials-", 17) == 0 && strlen(name) == 17 + 32);
	close(helper);
	assert_string_equal(ask(cs, "k\n", 7), "ok kv\n");
	assert_string_equal(ask(cs, "k\n", 0),
			    "error refused: this process is not one of the run's (it is outside "
			    "the run's PID namespace)\n");
	assert_string_equal(ask(cs, "nope\n", 7),
			    "error unknown credential \"nope\": project \"p\" has none by that name\n");
	assert_string_equal(ask(cs, "cb\n", 7), "ok from-callback\n");
	assert_string_equal(ask(cs, "cbfail\n", 7),
			    "error credential \"cbfail\" could not be had: its source failed (the "
			    "supervisor's audit record says why)\n");
	assert_int_equal(calls, 3);
	assert_string_equal(ask(cs, "Bad Name\n", 7),
			    "error bad request: send one credential name (^[a-z0-9][a-z0-9_.-]*$) and "
			    "a newline\n");
	assert_string_equal(ask(cs, "k\nextra", 7),
			    "error bad request: send one credential name (^[a-z0-9][a-z0-9_.-]*$) and "
			    "a newline\n");
	cred_serve_free(cs);
	/* A run of another uid: this process is not its user. */
	cs = cred_serve_new(&p, getuid() + 1, env, NULL, NULL, name, &helper);
	assert_non_null(cs);
	close(helper);
	assert_string_equal(ask(cs, "k\n", 7), "error refused: this process is not one of the run's\n");
	cred_serve_free(cs);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_global_and_project),
		cmocka_unit_test(test_refusals_same_from_code),
		cmocka_unit_test(test_code_built),
		cmocka_unit_test(test_from_env_not_also_allowlisted),
		cmocka_unit_test(test_from_file),
		cmocka_unit_test(test_from_env),
		cmocka_unit_test(test_from_command),
		cmocka_unit_test(test_from_command_hostile),
		cmocka_unit_test(test_serve),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
