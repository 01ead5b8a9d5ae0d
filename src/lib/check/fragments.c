/* SPDX-License-Identifier: ISC */
/* fragments.c - see fragments.h. */
#include "check/fragments.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "check/messages_int.h"
#include "check/report.h"
#include "config/config_int.h"
#include "setup_fragment_scan.h"
#include "strv.h"

#define SUDOERS_D "/etc/sudoers.d"

/* The targets of e in (1), not in (0) a project, or all (-1), each quoted, ", " between. */
static void names(struct buf *b, const struct fragment_entry *e, const char *const *users,
		  int in)
{
	int first = 1;
	for (size_t i = 0; i < e->f.ntargets; i++) {
		if (in >= 0 && (strv_contains(users, e->f.targets[i]) != 0) != in)
			continue;
		buf_adds(b, first ? "" : ", ");
		q(b, e->f.targets[i]);
		first = 0;
	}
}

static void config_arg(struct buf *b, const struct ruas_config *cfg)
{
	buf_adds(b, " --config ");
	if (cfg->path)
		quote_shell(b, cfg->path);
	else
		buf_adds(b, "FILE");
}

static struct words msg_fragment(const struct ruas_config *cfg, const struct fragment_scan *s,
				 const struct fragment_entry *e, const char *const *users)
{
	struct buf b = BUF_INIT;
	size_t fx;
	buf_printf(&b, "WARNING: " SUDOERS_D "/%s", e->name);
	if (e->verdict == FRAGMENT_NOT_UNDERSTOOD) {
		buf_printf(&b, " has ruas-setup's header, but line %u is not one ruas-setup "
			       "writes (%s): what it grants is not judged.\nFix: ",
			   e->f.bad_line, e->f.why);
		fx = b.len;
		buf_adds(&b, "look at it; regenerate it with ruas-setup install --supervisor USER");
		config_arg(&b, cfg);
		buf_adds(&b, ", or remove it (ruas-setup prune leaves it).\n");
		return msg_words(&b, fx, b.len);
	}
	buf_adds(&b, ", written by ruas-setup, lets user ");
	q(&b, e->f.supervisor);
	if (e->verdict == FRAGMENT_OTHER_SUPERVISOR && !s->guessed) {
		buf_adds(&b, ", who is not the configured supervisor ");
		q(&b, s->current[0]);
		buf_adds(&b, ", run commands as ");
		names(&b, e, users, -1);
		buf_adds(&b, " without a password.\nFix: ");
	} else {
		buf_adds(&b, " run commands as ");
		names(&b, e, users, 0);
		buf_adds(&b, " (in no project) without a password");
		buf_adds(&b, e->verdict == FRAGMENT_MIXED ? ", beside users of projects.\nFix: "
							   : ".\nFix: ");
	}
	fx = b.len;
	if (e->verdict == FRAGMENT_MIXED) {
		buf_adds(&b, "ruas-setup install --supervisor ");
		buf_adds(&b, e->f.supervisor);
		config_arg(&b, cfg);
		/* Under its own name, or install writes ruas-SUPERVISOR beside it. */
		if (!setup_fragment_default_name(e->name, e->f.supervisor)) {
			buf_adds(&b, " --name ");
			quote_shell(&b, e->name);
		}
		buf_adds(&b, " (as root) regenerates it; ruas-setup prune leaves a fragment that "
			     "still grants users of projects.\n");
	} else {
		buf_adds(&b, "ruas-setup prune");
		config_arg(&b, cfg);
		buf_adds(&b, " (as root) removes it.\n");
	}
	return msg_words(&b, fx, b.len);
}

/*
 * The supervisor taken as current: the key's; else none, and the scan takes
 * those whose fragments grant users of projects, as ruas-setup prune does, so
 * that what the check calls stray is what prune removes (whoever runs it).
 */
static const char *current_supervisor(const struct ruas_config *cfg)
{
	return cfg->supervisor;
}

static char **project_users(const struct ruas_config *cfg)
{
	char **v = NULL;
	size_t n = 0;
	for (size_t i = 0; i < cfg->nprojects; i++) {
		const char *u = cfg->projects[i]->run_as_user;
		if (u && !strv_contains((const char *const *)v, u) && strv_push(&v, &n, strdup(u)) < 0) {
			strv_free(v);
			return NULL;
		}
	}
	return v ? v : calloc(1, sizeof *v);
}

/* This user cannot read sudoers.d (Debian's is 0750 root): said, not a finding. */
static int note_unjudged(ruas_report *rep)
{
	return report_unjudged(rep, "ruas-setup's fragments, which may grant a renamed "
				    "supervisor or users of no project (ruas-setup prune "
				    "--dry-run lists them)",
			       SUDOERS_D);
}

static int open_sudoers_d(const char *fs_root, int *fd)
{
	struct buf path = BUF_INIT;
	buf_adds(&path, fs_root ? fs_root : "");
	buf_adds(&path, SUDOERS_D);
	if (path.oom)
		return -1;
	*fd = open(path.data, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	int e = errno;
	buf_free(&path);
	errno = e;
	return 0;
}

int report_setup_fragments(ruas_report *rep, const struct ruas_config *cfg,
			   const char *fs_root)
{
	int dfd;
	if (open_sudoers_d(fs_root, &dfd) < 0)
		return -1;
	if (dfd < 0)
		return errno == EACCES || errno == EPERM ? note_unjudged(rep) : 0;
	char **users = project_users(cfg);
	struct fragment_scan s;
	int r = -1;
	if (!users)
		goto out;
	if (fragment_scan(dfd, current_supervisor(cfg), (const char *const *)users,
			  &s) < 0) {
		/* Not listable (EACCES): as unreadable; another error: nothing to say. */
		r = errno == ENOMEM ? -1 : errno == EACCES ? note_unjudged(rep) : 0;
		goto out;
	}
	/* A non-root supervisor reads none of them (0440 root): said, as for the directory. */
	r = s.unreadable ? note_unjudged(rep) : 0;
	for (size_t i = 0; r == 0 && i < s.n; i++) {
		if (s.e[i].verdict == FRAGMENT_CURRENT)
			continue;
		struct buf path = BUF_INIT;
		buf_printf(&path, SUDOERS_D "/%s", s.e[i].name);
		r = path.oom ? -1
			     : report_host_add(rep, RUAS_SEVERITY_WARNING, "sudoers_fragment",
					       path.data,
					       msg_fragment(cfg, &s, &s.e[i],
							    (const char *const *)users));
		buf_free(&path);
	}
	fragment_scan_free(&s);
out:
	strv_free(users);
	close(dfd);
	return r;
}
