/* SPDX-License-Identifier: ISC */
/* args.h - what ruas-setup was asked to do. */
#ifndef RUAS_SETUP_ARGS_H
#define RUAS_SETUP_ARGS_H

#include <pwd.h>

#define SETUP_OK 0
#define SETUP_FAILED 1 /* a validation failed; nothing changed */
#define SETUP_USAGE 2  /* usage error or refused input; nothing printed or written */

struct setup_args {
	const char *verb;
	const char *supervisor;
	const char **targets; /* NULL-terminated, distinct, in order given */
	const char *config;
	const char *name;
	const char *sudoers_dir;
	const char *visudo;
	const char *sudo;
	const char *helper;
	const char *shell;
	const char *home;
	const char *work_dir;
	const char *uid; /* useradd: the uid to pin, as given */
	int json;
	const char *unit;	     /* delegate: the supervisor's systemd service */
	const char *systemd_dir;     /* delegate --install: where UNIT.d goes */
	const char *systemd_version; /* delegate: as given, else systemctl's */
	const char *systemctl;
	int install;
	int dry_run; /* prune --dry-run */
	/* --config: target_sudo_allowed of every project with a run_as_user (borrowed) */
	const char **sudo_allowed;
};

int setup_sudoers(const struct setup_args *a);
int setup_useradd(const struct setup_args *a);
int setup_acl(const struct setup_args *a);
int setup_home(const struct setup_args *a);
int setup_install(const struct setup_args *a);
int setup_check(const struct setup_args *a);
int setup_delegate(const struct setup_args *a);
int setup_prune(const struct setup_args *a);

/* The one target of acl and home, looked up and checked. */
struct setup_target {
	struct passwd pw;  /* its strings live in mem */
	char mem[4096];
	char shown[256];   /* the user, escaped for messages */
	char pshown[1024]; /* the path the verb acts on, escaped */
};

/*
 * Checks --target (a plain user name, an existing account, not uid 0) and
 * path (absolute, else the usage message). SETUP_OK, or the exit code after
 * a message.
 */
int setup_target_lookup(const struct setup_args *a, const char *path, const char *usage,
			struct setup_target *t);

/* Prints "ruas-setup: " and the message on stderr; returns code. */
int setup_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
