/* SPDX-License-Identifier: ISC */
/*
 * prune.c - ruas-setup prune: remove the sudoers.d fragments that ruas-setup
 * wrote and that grant nothing the configuration still needs: those of
 * another supervisor (a renamed one's), and those none of whose targets is
 * the run_as_user of a project. Nothing else is ever removed: not a file
 * without ruas-setup's header, not one with a line ruas-setup never writes,
 * not a fragment that mixes current and stray targets (regenerating it with
 * install is its fix), not a file sudo skips, not a symlink. The judgement
 * is src/common/setup_fragment_scan.h's, the same as ruas check's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ruas.h"
#include "args.h"
#include "setup_fragment_scan.h"
#include "strv.h"

/* The distinct run_as_users of cfg, NULL-terminated (never NULL unless OOM). */
static char **project_users(const ruas_config *cfg)
{
	char **v = NULL;
	size_t n = 0;
	for (size_t i = 0; i < ruas_config_project_count(cfg); i++) {
		const char *u = ruas_project_run_as_user(ruas_config_project_at(cfg, i));
		if (u && !strv_contains((const char *const *)v, u) && strv_push(&v, &n, strdup(u)) < 0) {
			strv_free(v);
			return NULL;
		}
	}
	return v ? v : calloc(1, sizeof *v);
}

static int open_dir(const char *dir, int *dfd)
{
	struct stat st;
	*dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*dfd < 0)
		return setup_fail(SETUP_USAGE, "cannot open %s: %s; nothing removed", dir,
				  strerror(errno));
	if (fstat(*dfd, &st) < 0 || st.st_uid != 0 || (st.st_mode & 022))
		return setup_fail(SETUP_USAGE, "%s must be owned by root and writable only by "
				  "root (sudo would ignore or distrust it); nothing removed", dir);
	return 0;
}

/* Why e goes, for its line: "supervisor S is not ...; it grants a, b" or "supervisor S; a in no project". */
static void why_stray(const struct fragment_scan *s, const struct fragment_entry *e,
		      const char *supervisor, const char *targets, char *out, size_t n)
{
	if (e->verdict == FRAGMENT_OTHER_SUPERVISOR && !s->guessed)
		snprintf(out, n, "supervisor %s is not the configured %s; it grants %s",
			 e->f.supervisor, supervisor, targets);
	else
		snprintf(out, n, "supervisor %s; %s in no project", e->f.supervisor, targets);
}

/*
 * The options that make install write e itself, not ruas-SUPERVISOR beside it:
 * " --name NAME" and " --sudoers-dir DIR" when they are not the defaults.
 */
static void install_place(char *out, size_t n, const char *dir, const struct fragment_entry *e)
{
	int named = !setup_fragment_default_name(e->name, e->f.supervisor);
	int other_dir = strcmp(dir, "/etc/sudoers.d") != 0;
	snprintf(out, n, "%s%s%s%s", named ? " --name " : "", named ? e->name : "",
		 other_dir ? " --sudoers-dir " : "", other_dir ? dir : "");
}

/* What prune leaves, and says so on stderr. */
static void note_left(const struct setup_args *a, const char *dir, const struct fragment_entry *e,
		      const char *const *users)
{
	if (e->verdict == FRAGMENT_NOT_UNDERSTOOD) {
		setup_fail(0, "left %s/%s: it has ruas-setup's header, but line %u is not one "
			   "ruas-setup writes (%s); look at it, and remove it by hand if it is "
			   "not needed", dir, e->name, e->f.bad_line, e->f.why);
		return;
	}
	char *stray = fragment_targets_text(e, users, 0);
	char where[512];
	install_place(where, sizeof where, dir, e);
	setup_fail(0, "left %s/%s: it grants %s, in no project, beside current targets; "
		   "regenerate it: ruas-setup install --supervisor %s --config %s%s",
		   dir, e->name, stray ? stray : "some users", e->f.supervisor, a->config, where);
	free(stray);
}

/* Removes (or, dry, names) each wholly stray entry; the exit code. */
static int remove_stray(const struct setup_args *a, const char *dir, int dfd,
			const struct fragment_scan *s, const char *supervisor,
			const char *const *users)
{
	int rc = SETUP_OK;
	for (size_t i = 0; i < s->n; i++) {
		const struct fragment_entry *e = &s->e[i];
		if (e->verdict == FRAGMENT_MIXED || e->verdict == FRAGMENT_NOT_UNDERSTOOD)
			note_left(a, dir, e, users);
		if (e->verdict != FRAGMENT_OTHER_SUPERVISOR && e->verdict != FRAGMENT_NO_PROJECT)
			continue;
		char *targets = fragment_targets_text(e, NULL, 0);
		char why[1024];
		why_stray(s, e, supervisor, targets ? targets : "?", why, sizeof why);
		free(targets);
		if (a->dry_run) {
			printf("would remove %s/%s (%s)\n", dir, e->name, why);
		} else if (unlinkat(dfd, e->name, 0) < 0) {
			rc = setup_fail(SETUP_FAILED, "cannot remove %s/%s: %s", dir, e->name,
					strerror(errno));
		} else {
			printf("removed %s/%s (%s)\n", dir, e->name, why);
		}
	}
	/* The removals made durable; a failure is said, as the removals were made. */
	if (!a->dry_run && fsync(dfd) < 0)
		rc = setup_fail(SETUP_FAILED, "cannot sync %s: %s", dir, strerror(errno));
	return rc;
}

static void note_guess(const struct setup_args *a, const struct fragment_scan *s)
{
	if (!s->guessed)
		return;
	if (s->ncurrent == 0) {
		setup_fail(0, "%s has no supervisor key, and no fragment grants a user of a "
			   "project: prune takes no supervisor as current", a->config);
		return;
	}
	for (size_t i = 0; i < s->ncurrent; i++)
		setup_fail(0, "%s has no supervisor key: prune takes %s as the current "
			   "supervisor (its fragments grant users of projects); set supervisor "
			   "in %s to say which", a->config, s->current[i], a->config);
}

int setup_prune(const struct setup_args *a)
{
	const char *dir = a->sudoers_dir ? a->sudoers_dir : "/etc/sudoers.d";
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	struct fragment_scan s;
	char **users = NULL;
	const char *sup = NULL;
	int dfd = -1, rc;

	if (geteuid() != 0)
		return setup_fail(SETUP_USAGE, "prune must run as root; nothing removed");
	if (ruas_config_load(&cfg, a->config, &o, &err) < 0) {
		rc = setup_fail(SETUP_USAGE, "%s; nothing removed", ruas_error_message(err));
		ruas_error_free(err);
		return rc;
	}
	if (!(users = project_users(cfg))) {
		rc = setup_fail(SETUP_USAGE, "out of memory; nothing removed");
		goto out;
	}
	if ((rc = open_dir(dir, &dfd)) != 0)
		goto out;
	sup = ruas_config_supervisor(cfg);
	if (fragment_scan(dfd, sup, (const char *const *)users, &s) < 0) {
		rc = setup_fail(SETUP_USAGE, "cannot read %s: %s; nothing removed", dir,
				strerror(errno));
		goto out;
	}
	note_guess(a, &s);
	rc = remove_stray(a, dir, dfd, &s, sup, (const char *const *)users);
	fragment_scan_free(&s);
	if (fflush(stdout) != 0 || ferror(stdout))
		rc = setup_fail(SETUP_FAILED, "cannot write to stdout");
out:
	if (dfd >= 0)
		close(dfd);
	strv_free(users);
	ruas_config_free(cfg);
	return rc;
}
