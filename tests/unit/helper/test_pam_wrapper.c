/* SPDX-License-Identifier: ISC */
/*
 * test_pam_wrapper.c - src/helper/session/pam_login.c with pam_real_ops against the
 * real libpam, through cwrap's pam_wrapper (Debian package libpam-wrapper).
 *
 * pam_wrapper, preloaded, makes pam_start read service files from
 * PAM_WRAPPER_SERVICE_DIR instead of /etc/pam.d, so the test can have its
 * own services without root. main() writes them into a fresh directory
 * under /tmp, with absolute module paths, and runs itself again with
 * PAM_WRAPPER=1, PAM_WRAPPER_SERVICE_DIR and LD_PRELOAD set (like
 * nss_env.c does for nss_wrapper), then removes the directory.
 *
 *   ruas-ok            account, session, auth: pam_permit
 *   ruas-acct-deny     account: pam_deny
 *   ruas-session-deny  account: pam_permit, session: pam_deny
 *   ruas-matrix        pam_matrix with passdb "alice:secret:ruas-matrix"
 *   ruas-items         account: pam_get_items (puts PAM items in PAM's env)
 *   ruas-mail          session: pam_mail, which tells root about its mail
 *
 * The modules are real: pam_permit, pam_deny and pam_mail from
 * libpam-modules, pam_matrix and pam_get_items from libpam-wrapper.
 */
#include "config.h"

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
#include <sys/stat.h>
#include <unistd.h>

#include "pam_login.h"
#include "reexec.h"

#define USER "alice"
#define RUSER "root"
#define TTY "/dev/pts/3"
/* Set for the re-executed process: the directory main() made. */
#define DIR_ENV "RUAS_TEST_PAM_DIR"

/* ------------------------------------------------------------ set-up */

static const char *const candidates[] = {
#ifdef RUAS_MULTIARCH
	"/usr/lib/" RUAS_MULTIARCH "/libpam_wrapper.so",
#endif
	"/usr/lib/x86_64-linux-gnu/libpam_wrapper.so",
	"/usr/lib/aarch64-linux-gnu/libpam_wrapper.so",
	"/usr/lib/i386-linux-gnu/libpam_wrapper.so",
	"/usr/lib64/libpam_wrapper.so",
	"/usr/lib/libpam_wrapper.so",
	"/usr/local/lib/libpam_wrapper.so",
	NULL};

static void die(const char *what)
{
	fprintf(stderr, "test_pam_wrapper: %s: %s\n", what, strerror(errno));
	exit(99); /* automake: hard error */
}

__attribute__((noreturn)) static void skip_test(const char *why)
{
	printf("SKIP: %s\n", why);
	fflush(stdout);
	exit(77);
}

/* What main() created, removed in reverse order after the run. */
static char *created[32];
static int created_dirs[32];
static size_t ncreated;

static char *path_in(const char *dir, const char *name)
{
	char *p;
	if (asprintf(&p, "%s/%s", dir, name) < 0)
		die("asprintf");
	return p;
}

static void remember(char *path, int is_dir)
{
	if (ncreated == sizeof created / sizeof created[0]) {
		errno = ENOSPC;
		die("too many files");
	}
	created[ncreated] = path;
	created_dirs[ncreated++] = is_dir;
}

static void make_dir(char *path)
{
	if (mkdir(path, 0755) < 0)
		die(path);
	remember(path, 1);
}

static void write_file(char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		die(path);
	remember(path, 0);
	size_t len = strlen(text), off = 0;
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die(path);
		off += (size_t)n;
	}
	if (close(fd) < 0)
		die(path);
}

static void remove_created(void)
{
	while (ncreated > 0) {
		ncreated--;
		if (created_dirs[ncreated])
			rmdir(created[ncreated]);
		else
			unlink(created[ncreated]);
		free(created[ncreated]);
	}
}

static char *module(const char *libdir, const char *sub, const char *name)
{
	char *p;
	if (asprintf(&p, "%s/%s/%s", libdir, sub, name) < 0)
		die("asprintf");
	if (access(p, R_OK) != 0) {
		static char why[512];
		snprintf(why, sizeof why, "PAM module %s not installed", p);
		free(p);
		skip_test(why);
	}
	return p;
}

static void set_or_die(const char *name, const char *value)
{
	if (setenv(name, value, 1) < 0)
		die(name);
}

static void service(const char *svcdir, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void service(const char *svcdir, const char *name, const char *fmt, ...)
{
	char *text;
	va_list ap;
	va_start(ap, fmt);
	int r = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (r < 0)
		die("vasprintf");
	write_file(path_in(svcdir, name), text);
	free(text);
}

/*
 * Without PAM_WRAPPER: write the services, run this program again under
 * pam_wrapper, clean up and exit as it did. With PAM_WRAPPER: return.
 */
static void reexec_under_pam_wrapper(char **argv)
{
	if (getenv("PAM_WRAPPER"))
		return; /* we are the re-executed process */

	const char *lib = NULL;
	for (const char *const *c = candidates; *c && !lib; c++)
		if (access(*c, R_OK) == 0)
			lib = *c;
	if (!lib)
		skip_test("pam_wrapper (libpam-wrapper) not installed");

	char libdir[256];
	snprintf(libdir, sizeof libdir, "%s", lib);
	*strrchr(libdir, '/') = '\0';
	char *permit = module(libdir, "security", "pam_permit.so");
	char *deny = module(libdir, "security", "pam_deny.so");
	char *mail = module(libdir, "security", "pam_mail.so");
	char *matrix = module(libdir, "pam_wrapper", "pam_matrix.so");
	char *items = module(libdir, "pam_wrapper", "pam_get_items.so");

	char tmpl[] = "/tmp/ruas-pam.XXXXXX";
	if (!mkdtemp(tmpl))
		die("mkdtemp");
	char *dir = strdup(tmpl);
	if (!dir)
		die("strdup");
	remember(dir, 1);
	char *svc = path_in(dir, "services");
	make_dir(svc);
	char *passdb = path_in(dir, "passdb");
	/* pam_matrix: user:password:the one service the user may use */
	write_file(passdb, "alice:secret:ruas-matrix\n"
			   "bob:secret:some-other-service\n");
	char *maildir = path_in(dir, "mail");
	make_dir(maildir);
	write_file(path_in(maildir, "root"), "From nobody Thu Jan  1 00:00:00 1970\n\nhello\n");

	service(svc, "ruas-ok",
		"account required %s\nsession required %s\nauth required %s\n",
		permit, permit, permit);
	service(svc, "ruas-acct-deny",
		"account required %s\nsession required %s\nauth required %s\n",
		deny, permit, permit);
	service(svc, "ruas-session-deny",
		"account required %s\nsession required %s\nauth required %s\n",
		permit, deny, permit);
	service(svc, "ruas-matrix",
		"account required %s passdb=%s\nsession required %s passdb=%s\n"
		"auth required %s passdb=%s\n",
		matrix, passdb, matrix, passdb, matrix, passdb);
	service(svc, "ruas-items",
		"account required %s\nsession required %s\nauth required %s\n",
		items, permit, permit);
	service(svc, "ruas-mail",
		"account required %s\nsession required %s dir=%s\nauth required %s\n",
		permit, mail, maildir, permit);
	free(permit);
	free(deny);
	free(mail);
	free(matrix);
	free(items);

	set_or_die("PAM_WRAPPER", "1");
	set_or_die("PAM_WRAPPER_SERVICE_DIR", svc);
	set_or_die(DIR_ENV, dir);
	const char *old_preload = getenv("LD_PRELOAD");
	char *preload = NULL, *asan = NULL;
	if (asprintf(&preload, "%s%s%s", lib, old_preload && *old_preload ? " " : "",
		     old_preload ? old_preload : "") < 0)
		die("asprintf");
	set_or_die("LD_PRELOAD", preload);
	free(preload);
	/* ASan insists on being first in the link order; the preload is not. */
	const char *old_asan = getenv("ASAN_OPTIONS");
	if (asprintf(&asan, "%s%sverify_asan_link_order=0", old_asan ? old_asan : "",
		     old_asan && *old_asan ? ":" : "") < 0)
		die("asprintf");
	set_or_die("ASAN_OPTIONS", asan);
	free(asan);
	/*
	 * pam_wrapper dlopens libpam with RTLD_DEEPBIND, which the ASan runtime
	 * refuses (it aborts the process). pam_wrapper 1.1.4 reads the switch
	 * that turns it off under uid_wrapper's name; later releases read
	 * PAM_WRAPPER_DISABLE_DEEPBIND. Symbols then resolve the ordinary way,
	 * which changes nothing here: pam_wrapper's functions call libpam's.
	 */
	set_or_die("PAM_WRAPPER_DISABLE_DEEPBIND", "1");
	set_or_die("UID_WRAPPER_DISABLE_DEEPBIND", "1");

	int rc = rerun_self(argv, "test_pam_wrapper");
	remove_created();
	exit(rc);
}

/* ------------------------------------------------------------ helpers */

static int refuse_all(int n, const struct pam_message **msg, struct pam_response **resp,
		      void *data)
{
	(void)n;
	(void)msg;
	(void)data;
	*resp = NULL;
	return PAM_CONV_ERR;
}

/* pam_strerror's text for a status, asked with a handle of our own. */
static void strerror_text(int status, char *buf, size_t size)
{
	static const struct pam_conv conv = {refuse_all, NULL};
	pam_handle_t *h = NULL;
	assert_int_equal(pam_start("ruas-ok", "nobody", &conv, &h), PAM_SUCCESS);
	const char *text = pam_strerror(h, status);
	assert_non_null(text);
	snprintf(buf, size, "%s", text);
	pam_end(h, PAM_SUCCESS);
}

static int env_has(char **env, const char *entry)
{
	for (char **e = env; e && *e; e++)
		if (strcmp(*e, entry) == 0)
			return 1;
	return 0;
}

static int env_has_name(char **env, const char *name)
{
	size_t len = strlen(name);
	for (char **e = env; e && *e; e++)
		if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
			return 1;
	return 0;
}

/* A failed begin: everything undone, the step and PAM's reason. */
static void check_failure(const struct pam_login *l, enum pam_step step, const char *word,
			  int status)
{
	char text[128], want[256];
	if (l->failed != step || l->last != status)
		fprintf(stderr, "failed=%d last=%d reason=%s\n", l->failed, l->last, l->reason);
	assert_int_equal(l->failed, step);
	assert_int_equal(l->last, status);
	strerror_text(status, text, sizeof text);
	assert_non_null(strstr(l->reason, word));
	assert_non_null(strstr(l->reason, text));
	snprintf(want, sizeof want, "%s: %s", word, text);
	assert_string_equal(l->reason, want);
	assert_null(l->h);
	assert_int_equal(l->cred, 0);
	assert_int_equal(l->session, 0);
}

static void begin_ok(struct pam_login *l, const char *service_name, const char *user,
		     const char *ruser, const char *tty, int open_session)
{
	int r = pam_login_begin(l, &pam_real_ops, service_name, user, ruser, tty, open_session);
	if (r != 0)
		fprintf(stderr, "%s for %s: failed=%d last=%d reason=%s\n", service_name, user,
			l->failed, l->last, l->reason);
	assert_int_equal(r, 0);
	assert_int_equal(l->failed, STEP_NONE);
	assert_int_equal(l->last, PAM_SUCCESS);
	assert_string_equal(l->reason, "");
	assert_non_null(l->h);
	assert_int_equal(l->cred, open_session ? 1 : 0);
	assert_int_equal(l->session, open_session ? 1 : 0);
}

static void end_ok(struct pam_login *l)
{
	pam_login_end(l);
	assert_null(l->h);
	assert_int_equal(l->cred, 0);
	assert_int_equal(l->session, 0);
	assert_int_equal(l->last, PAM_SUCCESS); /* pam_close_session succeeded */
	pam_login_end(l); /* idempotent: nothing left to do */
	assert_null(l->h);
}

/* ------------------------------------------------------------ tests */

static void test_wrapper_active(void **state)
{
	(void)state;
	FILE *maps = fopen("/proc/self/maps", "r");
	assert_non_null(maps);
	char line[1024];
	int found = 0;
	while (!found && fgets(line, sizeof line, maps))
		found = strstr(line, "/libpam_wrapper.so") != NULL;
	fclose(maps);
	assert_true(found);
	const char *svc = getenv("PAM_WRAPPER_SERVICE_DIR");
	assert_non_null(svc);
	char *ok = path_in(svc, "ruas-ok");
	assert_int_equal(access(ok, R_OK), 0);
	free(ok);
	/* /etc/pam.d has no such service: only pam_wrapper's directory can answer. */
	assert_int_not_equal(access("/etc/pam.d/ruas-session-deny", F_OK), 0);
}

static void test_ok_session_opens_and_closes(void **state)
{
	(void)state;
	struct pam_login l;
	begin_ok(&l, "ruas-ok", USER, RUSER, TTY, 1);
	end_ok(&l);
	/* And again without the optional items. */
	begin_ok(&l, "ruas-ok", USER, NULL, NULL, 1);
	end_ok(&l);
}

static void test_ok_check_mode(void **state)
{
	(void)state;
	struct pam_login l;
	begin_ok(&l, "ruas-ok", USER, RUSER, TTY, 0);
	end_ok(&l);
}

/* pam_deny's account function answers PAM_AUTH_ERR. */
static void test_acct_deny(void **state)
{
	(void)state;
	struct pam_login l;
	assert_int_equal(pam_login_begin(&l, &pam_real_ops, "ruas-acct-deny", USER, RUSER, TTY, 1),
			 -1);
	check_failure(&l, STEP_ACCT, "account", PAM_AUTH_ERR);
	pam_login_end(&l);
	assert_null(l.h);
	/* Check mode stops at the same place. */
	assert_int_equal(pam_login_begin(&l, &pam_real_ops, "ruas-acct-deny", USER, RUSER, TTY, 0),
			 -1);
	check_failure(&l, STEP_ACCT, "account", PAM_AUTH_ERR);
}

/* pam_deny's session function answers PAM_SESSION_ERR. */
static void test_session_deny(void **state)
{
	(void)state;
	struct pam_login l;
	assert_int_equal(pam_login_begin(&l, &pam_real_ops, "ruas-session-deny", USER, RUSER,
					 TTY, 1),
			 -1);
	check_failure(&l, STEP_SESSION, "session", PAM_SESSION_ERR);
	pam_login_end(&l);
	assert_null(l.h);
	/* Check mode never opens a session, so the same service passes. */
	begin_ok(&l, "ruas-session-deny", USER, RUSER, TTY, 0);
	end_ok(&l);
}

/*
 * LeakSanitizer's switches, when the test is built with it (weak: NULL
 * otherwise). Allocations made while it is disabled are never reported.
 */
extern void __lsan_disable(void) __attribute__((weak));
extern void __lsan_enable(void) __attribute__((weak));

/*
 * A service without a file. Linux-PAM's pam_start reads the handlers at
 * once (_pam_init_handlers): <confdir>/<service>, and when that does not
 * exist <confdir>/other. Under pam_wrapper the confdir is the service
 * directory, which has no "other", so pam_start itself fails with
 * PAM_ABORT and hands back no handle (libpam logs "no default config
 * other" and "pam_start: failed to initialize handlers"). On a real system
 * /etc/pam.d/other would apply instead: begin would get past pam_start and
 * the outcome would be whatever "other" says.
 *
 * libpam 1.5.2 leaks 96 bytes of its own on that failure (plain
 * pam_start_confdir does it too, without pam_wrapper), and without a
 * handle there is nothing we could free them with; so LeakSanitizer looks
 * away during that one call.
 */
static void test_missing_service(void **state)
{
	(void)state;
	for (int open_session = 0; open_session <= 1; open_session++) {
		struct pam_login l;
		if (__lsan_disable)
			__lsan_disable();
		int r = pam_login_begin(&l, &pam_real_ops, "ruas-no-such-service", USER, RUSER,
					TTY, open_session);
		if (__lsan_enable)
			__lsan_enable();
		assert_int_equal(r, -1);
		assert_int_equal(l.failed, STEP_START);
		assert_int_equal(l.last, PAM_ABORT);
		assert_null(l.h);
		assert_int_equal(l.cred, 0);
		assert_int_equal(l.session, 0);
		assert_non_null(strstr(l.reason, "pam_start"));
		assert_non_null(strstr(l.reason, "ruas-no-such-service"));
		pam_login_end(&l);
		assert_null(l.h);
	}
}

/* pam_get_items copies PAM_USER, PAM_SERVICE, PAM_RUSER, PAM_TTY into PAM's env. */
static void test_items_reach_modules(void **state)
{
	(void)state;
	struct pam_login l;
	begin_ok(&l, "ruas-items", USER, RUSER, TTY, 1);
	char **env = pam_login_env(&l);
	assert_non_null(env);
	assert_true(env_has(env, "PAM_USER=" USER));
	assert_true(env_has(env, "PAM_SERVICE=ruas-items"));
	assert_true(env_has(env, "PAM_RUSER=" RUSER));
	assert_true(env_has(env, "PAM_TTY=" TTY));
	pam_login_free_env(env);
	end_ok(&l);

	/* Without them, no item is set. */
	begin_ok(&l, "ruas-items", USER, NULL, NULL, 0);
	env = pam_login_env(&l);
	assert_true(env_has(env, "PAM_USER=" USER));
	assert_false(env_has_name(env, "PAM_RUSER"));
	assert_false(env_has_name(env, "PAM_TTY"));
	pam_login_free_env(env);
	end_ok(&l);
}

/*
 * pam_matrix (checked by experiment): acct_mgmt succeeds for a user whose
 * passdb line names this service, and answers PAM_PERM_DENIED for a user
 * that is not in passdb or whose line names another service. Its setcred
 * puts CRED=/tmp/<user> and its open_session HOMEDIR=/home/<user> in PAM's
 * environment.
 */
static void test_matrix_known_user(void **state)
{
	(void)state;
	struct pam_login l;
	begin_ok(&l, "ruas-matrix", "alice", RUSER, TTY, 0);
	end_ok(&l);

	begin_ok(&l, "ruas-matrix", "alice", RUSER, TTY, 1);
	char **env = pam_login_env(&l);
	assert_true(env_has(env, "CRED=/tmp/alice"));
	assert_true(env_has(env, "HOMEDIR=/home/alice"));
	pam_login_free_env(env);
	end_ok(&l);
}

static void test_matrix_unknown_user(void **state)
{
	(void)state;
	struct pam_login l;
	assert_int_equal(pam_login_begin(&l, &pam_real_ops, "ruas-matrix", "mallory", RUSER, TTY, 1),
			 -1);
	check_failure(&l, STEP_ACCT, "account", PAM_PERM_DENIED);
	assert_int_equal(pam_login_begin(&l, &pam_real_ops, "ruas-matrix", "mallory", RUSER, TTY, 0),
			 -1);
	check_failure(&l, STEP_ACCT, "account", PAM_PERM_DENIED);
	/* bob is in passdb, but for another service. */
	assert_int_equal(pam_login_begin(&l, &pam_real_ops, "ruas-matrix", "bob", RUSER, TTY, 0),
			 -1);
	check_failure(&l, STEP_ACCT, "account", PAM_PERM_DENIED);
}

/*
 * pam_mail only tells root "You have old mail in folder ..." (PAM_TEXT_INFO
 * through pam_info) and returns pam_info's status. Nothing was asked, so
 * the session must open, as it does under runuser; the message goes to
 * stderr. It fails when the conversation answers PAM_CONV_ERR to a
 * conversation of messages only, as pam_login.c's did at e8b2deb (see
 * test_pam_sequence.c, test_conv_info_only_succeeds).
 */
static void test_info_message_does_not_fail_session(void **state)
{
	(void)state;
	struct pam_login l;
	begin_ok(&l, "ruas-mail", "root", NULL, NULL, 1);
	char **env = pam_login_env(&l);
	char *want;
	assert_true(asprintf(&want, "MAIL=%s/mail/root", getenv(DIR_ENV)) > 0);
	int has = env_has(env, want);
	free(want);
	pam_login_free_env(env);
	end_ok(&l);
	assert_true(has);
}

int main(int argc, char **argv)
{
	(void)argc;
	reexec_under_pam_wrapper(argv);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrapper_active),
		cmocka_unit_test(test_ok_session_opens_and_closes),
		cmocka_unit_test(test_ok_check_mode),
		cmocka_unit_test(test_acct_deny),
		cmocka_unit_test(test_session_deny),
		cmocka_unit_test(test_missing_service),
		cmocka_unit_test(test_items_reach_modules),
		cmocka_unit_test(test_matrix_known_user),
		cmocka_unit_test(test_matrix_unknown_user),
		cmocka_unit_test(test_info_message_does_not_fail_session),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
