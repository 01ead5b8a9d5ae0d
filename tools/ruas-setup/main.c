/* SPDX-License-Identifier: ISC */
/*
 * ruas-setup - provision target users and the supervisor's scoped sudoers
 * fragment, with the same library code that ruas check uses.
 *
 * Exit codes: 0 ok; 1 a validation failed and nothing changed; 2 usage
 * error or refused input, with nothing printed on stdout and nothing written.
 */
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_print.h"
#include "ruas.h"
#include "args.h"

#ifndef RUAS_DEFAULT_CONFIG
#define RUAS_DEFAULT_CONFIG "/etc/ruas/ruas.conf"
#endif

static void usage(FILE *f)
{
	fputs("usage: ruas-setup sudoers --supervisor USER (--target USER ... | --config FILE)\n"
	      "       ruas-setup useradd --target USER [--shell PATH] [--home DIR] [--work-dir DIR]\n"
	      "                          [--uid N]\n"
	      "       ruas-setup install --supervisor USER (--target USER ... | --config FILE)\n"
	      "                          [--name NAME] [--sudoers-dir DIR]\n"
	      "       ruas-setup check (--target USER ... | --config FILE) [--supervisor USER] [--json]\n"
	      "       ruas-setup acl --target USER --work-dir DIR\n"
	      "       ruas-setup home --target USER --home DIR\n"
	      "       ruas-setup delegate --unit UNIT [--systemd-version N]\n"
	      "                           [--install [--systemd-dir DIR]]\n"
	      "       ruas-setup prune [--config FILE] [--sudoers-dir DIR] [--dry-run]\n"
	      "\n"
	      "  sudoers  print the supervisor's sudoers fragment on stdout\n"
	      "  useradd  print an idempotent POSIX sh script that creates a target user\n"
	      "  install  write the fragment to sudoers.d atomically, validate it with\n"
	      "           visudo and the no-escalation check, restore the old one on failure\n"
	      "  check    run the no-escalation and group checks for each target\n"
	      "  acl      grant USER rwX on the tree DIR (default ACLs on directories) by\n"
	      "           descriptor: no symlink followed, no other filesystem entered\n"
	      "  home     chmod 0700 the home DIR of USER by descriptor, if USER owns it\n"
	      "  delegate print the systemd drop-in that gives the supervisor's service UNIT\n"
	      "           a cgroup of its own for the runs' limits; --install writes it as\n"
	      "           DIR/UNIT.d/ruas-delegate.conf (DIR /etc/systemd/system)\n"
	      "  prune    remove the fragments ruas-setup wrote that are stray: another\n"
	      "           supervisor's than FILE's (default " RUAS_DEFAULT_CONFIG "),\n"
	      "           or granting no run_as_user of its projects; one line each\n"
	      "           (--dry-run: what it would remove); exit 1 if one could not be\n"
	      "           removed\n"
	      "\n"
	      "  other options: --visudo PATH, --sudo PATH, --helper PATH, --systemctl PATH\n"
	      "exit status: 0 ok, 1 a validation failed (nothing changed), or prune could\n"
	      "             not remove a file (the others it names are removed),\n"
	      "             2 usage error or refused input (nothing printed or written)\n",
	      f);
}

int setup_fail(int code, const char *fmt, ...)
{
	va_list ap;
	fputs("ruas-setup: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

/* Appends t to the NULL-terminated *vec unless it is there already. */
static int add_name(const char ***vec, size_t *n, const char *t)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*vec)[i], t) == 0)
			return 0;
	const char **v = realloc(*vec, (*n + 2) * sizeof *v);
	if (!v)
		return -1;
	*vec = v;
	v[(*n)++] = t;
	v[*n] = NULL;
	return 0;
}

static int add_target(struct setup_args *a, size_t *n, const char *t)
{
	return add_name(&a->targets, n, t);
}

/* The distinct run_as_users of a ruas configuration; projects without one are ignored. */
static int targets_from_config(struct setup_args *a, size_t *n, ruas_config **cfg)
{
	ruas_error *err = NULL;
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	if (ruas_config_load(cfg, a->config, &o, &err) < 0) {
		int r = setup_fail(SETUP_USAGE, "%s", ruas_error_message(err));
		ruas_error_free(err);
		return r;
	}
	size_t nallowed = 0;
	for (size_t i = 0; i < ruas_config_project_count(*cfg); i++) {
		const ruas_project *p = ruas_config_project_at(*cfg, i);
		const char *u = ruas_project_run_as_user(p);
		if (u && add_target(a, n, u) < 0)
			return setup_fail(SETUP_USAGE, "out of memory");
		/* The checks of the targets accept what the configuration accepts. */
		for (const char *const *c = ruas_project_target_sudo_allowed(p); u && *c; c++)
			if (add_name(&a->sudo_allowed, &nallowed, *c) < 0)
				return setup_fail(SETUP_USAGE, "out of memory");
	}
	if (*n == 0)
		return setup_fail(SETUP_USAGE, "%s: no project has a run_as_user",
				  a->config);
	if (!a->sudo)
		a->sudo = ruas_config_sudo(*cfg);
	if (!a->helper)
		a->helper = ruas_config_helper(*cfg);
	return 0;
}

/* A step of main() that lets the command go on returns this; else the exit code. */
#define GO_ON (-1)

static const struct verb {
	const char *name;
	int (*run)(const struct setup_args *a);
	int one_target;       /* acts on one user's account: exactly one --target */
	int needs_supervisor; /* writes or prints the supervisor's fragment */
	int needs_unit;       /* acts on the supervisor's systemd service, on no user */
	int config_only;      /* reads the configuration (--config, or the default) and no user */
} verbs[] = {
	{"sudoers", setup_sudoers, 0, 1, 0, 0},
	{"useradd", setup_useradd, 1, 0, 0, 0},
	{"install", setup_install, 0, 1, 0, 0},
	{"check", setup_check, 0, 0, 0, 0},
	{"acl", setup_acl, 1, 0, 0, 0},
	{"home", setup_home, 1, 0, 0, 0},
	{"delegate", setup_delegate, 0, 0, 1, 0},
	{"prune", setup_prune, 0, 0, 0, 1},
};

static const struct verb *find_verb(const char *name)
{
	for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
		if (strcmp(name, verbs[i].name) == 0)
			return &verbs[i];
	return NULL;
}

/* --help, --version, or no verb: an exit code; GO_ON for a verb. */
static int front(int argc, char **argv)
{
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return output_ok(stdout) ? SETUP_OK : SETUP_FAILED;
	}
	if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
		printf("ruas-setup %s\n", RUAS_VERSION);
		return output_ok(stdout) ? SETUP_OK : SETUP_FAILED;
	}
	if (argc < 2 || argv[1][0] == '-') {
		usage(stderr);
		return SETUP_USAGE;
	}
	return GO_ON;
}

/* The options after the verb, all verbs' alike (the verb's checks come later). */
static int parse_options(int argc, char **argv, struct setup_args *a, size_t *ntargets)
{
	static const struct option opts[] = {
		{"supervisor", required_argument, NULL, 's'},
		{"target", required_argument, NULL, 't'},
		{"config", required_argument, NULL, 'c'},
		{"name", required_argument, NULL, 'n'},
		{"sudoers-dir", required_argument, NULL, 'd'},
		{"visudo", required_argument, NULL, 'V'},
		{"sudo", required_argument, NULL, 'S'},
		{"helper", required_argument, NULL, 'H'},
		{"shell", required_argument, NULL, 'l'},
		{"home", required_argument, NULL, 'm'},
		{"work-dir", required_argument, NULL, 'w'},
		{"uid", required_argument, NULL, 'I'},
		{"json", no_argument, NULL, 'j'},
		{"unit", required_argument, NULL, 'u'},
		{"systemd-dir", required_argument, NULL, 'D'},
		{"systemd-version", required_argument, NULL, 'Y'},
		{"systemctl", required_argument, NULL, 'C'},
		{"install", no_argument, NULL, 'i'},
		{"dry-run", no_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'v'},
		{NULL, 0, NULL, 0}};
	int c;
	optind = 2;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': a->supervisor = optarg; break;
		case 't':
			if (add_target(a, ntargets, optarg) < 0)
				return setup_fail(SETUP_USAGE, "out of memory");
			break;
		case 'c': a->config = optarg; break;
		case 'n': a->name = optarg; break;
		case 'd': a->sudoers_dir = optarg; break;
		case 'V': a->visudo = optarg; break;
		case 'S': a->sudo = optarg; break;
		case 'H': a->helper = optarg; break;
		case 'l': a->shell = optarg; break;
		case 'm': a->home = optarg; break;
		case 'w': a->work_dir = optarg; break;
		case 'I': a->uid = optarg; break;
		case 'j': a->json = 1; break;
		case 'u': a->unit = optarg; break;
		case 'D': a->systemd_dir = optarg; break;
		case 'Y': a->systemd_version = optarg; break;
		case 'C': a->systemctl = optarg; break;
		case 'i': a->install = 1; break;
		case 'r': a->dry_run = 1; break;
		case 'h':
			usage(stdout);
			return output_ok(stdout) ? SETUP_OK : SETUP_FAILED;
		default:
			return setup_fail(SETUP_USAGE, "try 'ruas-setup --help'");
		}
	}
	if (optind != argc)
		return setup_fail(SETUP_USAGE, "unexpected argument '%s'", argv[optind]);
	return GO_ON;
}

/* The users verb v acts on: one --target, or --target ... or --config's run_as_users. */
static int check_targets(const struct verb *v, struct setup_args *a, size_t *ntargets,
			 ruas_config **cfg)
{
	int rc;
	if (v->needs_unit) {
		if (*ntargets || a->config || a->supervisor)
			return setup_fail(SETUP_USAGE, "%s takes --unit UNIT, and no --target, "
					  "--config nor --supervisor", a->verb);
		if (!a->unit)
			return setup_fail(SETUP_USAGE, "%s needs --unit UNIT (the supervisor's "
					  "systemd service)", a->verb);
		if (a->systemd_dir && !a->install)
			return setup_fail(SETUP_USAGE, "--systemd-dir goes with --install");
		return GO_ON;
	}
	if (a->unit || a->install || a->systemd_dir || a->systemd_version || a->systemctl)
		return setup_fail(SETUP_USAGE, "--unit, --install, --systemd-dir, "
				  "--systemd-version and --systemctl belong to delegate");
	if (a->dry_run && !v->config_only)
		return setup_fail(SETUP_USAGE, "--dry-run belongs to prune");
	if (v->config_only) {
		if (*ntargets || a->supervisor || a->name)
			return setup_fail(SETUP_USAGE, "%s takes no --target, --supervisor nor "
					  "--name: it judges the fragments by the configuration "
					  "(--config FILE)", a->verb);
		if (!a->config)
			a->config = RUAS_DEFAULT_CONFIG;
		return GO_ON;
	}
	if (v->one_target) {
		if (*ntargets != 1 || a->config)
			return setup_fail(SETUP_USAGE, "%s takes exactly one --target USER",
					  a->verb);
		return GO_ON;
	}
	if (!!*ntargets == !!a->config)
		return setup_fail(SETUP_USAGE, "%s needs --target USER ... or --config FILE "
				  "(one of them)", a->verb);
	if (a->config && (rc = targets_from_config(a, ntargets, cfg)) != 0)
		return rc;
	if (v->needs_supervisor && !a->supervisor)
		return setup_fail(SETUP_USAGE, "%s needs --supervisor USER", a->verb);
	return GO_ON;
}

/* Verb v (NULL: not a verb) with the options parsed: its checks, then the verb. */
static int run_verb(const struct verb *v, struct setup_args *a, size_t *ntargets,
		    ruas_config **cfg)
{
	if (!v)
		return setup_fail(SETUP_USAGE, "unknown command '%s'; try 'ruas-setup --help'",
				  a->verb);
	if (a->uid && v->run != setup_useradd)
		return setup_fail(SETUP_USAGE, "--uid belongs to useradd");
	int rc = check_targets(v, a, ntargets, cfg);
	return rc == GO_ON ? v->run(a) : rc;
}

int main(int argc, char **argv)
{
	struct setup_args a;
	size_t ntargets = 0;
	ruas_config *cfg = NULL;
	/* Its children (visudo, systemctl) are waited for: never reaped for it by an inherited SIG_IGN. */
	signal(SIGCHLD, SIG_DFL);
	int rc = front(argc, argv);
	if (rc != GO_ON)
		return rc;
	memset(&a, 0, sizeof a);
	a.verb = argv[1];
	rc = parse_options(argc, argv, &a, &ntargets);
	if (rc == GO_ON)
		rc = run_verb(find_verb(a.verb), &a, &ntargets, &cfg);
	ruas_config_free(cfg);
	free(a.targets);
	free(a.sudo_allowed);
	return rc;
}
