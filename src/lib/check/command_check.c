/* SPDX-License-Identifier: ISC */
/* command_check.c - see command_check.h. */
#include "check/command_check.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check/messages_int.h"
#include "check/report.h"

/* What the agent's exec is given, as the helper must look it up: relative with '/', from work_dir. */
static char *lookup_text(const struct ruas_project *p)
{
	const char *cmd = p->command[0];
	struct buf b = BUF_INIT;
	if (strchr(cmd, '/') && cmd[0] != '/')
		buf_printf(&b, "%s/%s", p->work_dir, cmd);
	else
		buf_adds(&b, cmd);
	if (b.oom) {
		buf_free(&b);
		return NULL;
	}
	return buf_detach(&b);
}

int job_commands_add(struct job_commands *c, size_t nprojects, const struct ruas_project *p)
{
	if (!c->v && (!(c->v = calloc(nprojects + 1, sizeof *c->v)) ||
		      !(c->of = calloc(nprojects + 1, sizeof *c->of))))
		return -1;
	char *t = lookup_text(p);
	if (!t)
		return -1;
	size_t k = 0;
	while (k < c->n && c->v[k] && strcmp(c->v[k], t) != 0)
		k++;
	if (k < c->n)
		free(t);
	else
		c->v[c->n++] = t;
	c->of[c->nof++] = k;
	return 0;
}

void job_commands_free(struct job_commands *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i]);
	free(c->v);
	free(c->of);
	memset(c, 0, sizeof *c);
}

static void where_searched(struct buf *b, const struct cmd_result *cr)
{
	buf_adds(b, " in the PATH that its login environment starts with, ");
	q(b, cr->searched);
	buf_adds(b, " (login files such as ~/.profile, which may add to it, run only when the "
		    "agent starts)");
}

struct words msg_command_missing(const char *project, const char *user, const char *command,
				 const struct cmd_result *cr, int fatal)
{
	struct buf b = BUF_INIT;
	int has_slash = strchr(command, '/') != NULL;
	msg_prefix(&b, fatal ? "ERROR: " : "WARNING: ", project);
	buf_adds(&b, "the command ");
	q(&b, command);
	buf_adds(&b, " cannot be run by target user ");
	q(&b, user);
	if (cr->state == CMD_NOT_EXEC) {
		buf_adds(&b, ": ");
		q(&b, cr->path);
		buf_adds(&b, " is not a regular file that it may reach and execute");
		if (!has_slash)
			where_searched(&b, cr);
		buf_adds(&b, ", so ruas run would fail with 126.");
	} else {
		buf_adds(&b, ": ");
		if (has_slash) {
			q(&b, cr->path);
			buf_adds(&b, " does not exist");
		} else {
			buf_adds(&b, "it is not found");
			where_searched(&b, cr);
		}
		buf_adds(&b, ", so ruas run would fail with 127.");
	}
	if (fatal)
		buf_adds(&b, " require_command is true for this project.");
	buf_adds(&b, "\nFix: ");
	size_t fx = b.len;
	if (cr->state == CMD_NOT_EXEC) {
		buf_adds(&b, "make ");
		q(&b, cr->path);
		buf_adds(&b, " a program that ");
		q(&b, user);
		buf_adds(&b, " may run (chmod a+rx), or fix the project's command.");
	} else {
		buf_adds(&b, "install ");
		q(&b, command);
		buf_adds(&b, has_slash ? " there" : " in one of those directories");
		buf_adds(&b, " for ");
		q(&b, user);
		buf_adds(&b, ", or fix the project's command (an absolute path, say).");
	}
	size_t end = b.len;
	buf_adds(&b, "\n");
	return msg_words(&b, fx, end);
}

int report_commands(const struct ruas_config *cfg, const struct job *j,
		    const struct job_projects *jp, const struct job_commands *c, ruas_report *rep)
{
	int r = 0;
	if (j->outcome != OUT_OK)
		return 0; /* why the check could not run is the finding */
	for (size_t k = 0; k < jp->n && k < c->nof; k++) {
		size_t pi = jp->index[k], ci = c->of[k];
		const struct ruas_project *p = cfg->projects[pi];
		const struct cmd_result *cr = ci < j->hr.cmds.n ? &j->hr.cmds.v[ci] : NULL;
		if (cr && cr->seen && cr->state == CMD_FOUND)
			continue;
		if (!cr || !cr->seen) {
			/* A helper of another build: not judged, and fatal as an unread answer is. */
			r |= report_add(rep, pi, RUAS_SEVERITY_FATAL, "command", j->spec->user, NULL,
					msg_internal_errno(p->name, j->spec->user,
							   "the ruas helper did not say whether the "
							   "project's command is there",
							   0));
			continue;
		}
		r |= report_add(rep, pi,
				p->require_command ? RUAS_SEVERITY_FATAL : RUAS_SEVERITY_WARNING,
				"command", j->spec->user, *cr->path ? cr->path : NULL,
				msg_command_missing(p->name, j->spec->user, p->command[0], cr,
						    p->require_command));
	}
	return r;
}
