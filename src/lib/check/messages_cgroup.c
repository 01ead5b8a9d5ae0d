/* SPDX-License-Identifier: ISC */
/*
 * messages_cgroup.c - the "limits" check's texts for a run's own cgroup: why
 * one cannot be made where the configuration says, and the fix.
 */
#include "check/messages.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "cgroup/judge.h"
#include "cgroup/place.h"
#include "cgroup/run.h"
#include "check/messages_int.h"

/* "memory, pids" for CGROUP_CTL_* bits. */
static void controller_words(struct buf *b, unsigned int bits, const char *sep, const char *plus)
{
	static const struct {
		unsigned int bit;
		const char *name;
	} names[] = {{CGROUP_CTL_MEMORY, "memory"}, {CGROUP_CTL_PIDS, "pids"},
		     {CGROUP_CTL_CPU, "cpu"}};
	int first = 1;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (bits & names[i].bit) {
			buf_printf(b, "%s%s%s", first ? "" : sep, plus, names[i].name);
			first = 0;
		}
}

/* mount, a path beneath it and a suffix ("/runs", or "") as one path, quoted. */
static void at_sub(struct buf *b, const char *mount, const char *path, const char *suffix)
{
	struct buf p = BUF_INIT;
	buf_adds(&p, mount);
	if (strcmp(path, "/") != 0)
		buf_adds(&p, strcmp(mount, "/") == 0 ? path + 1 : path);
	buf_adds(&p, suffix);
	q(b, p.data ? p.data : "");
	buf_free(&p);
}

static void at(struct buf *b, const char *mount, const char *path)
{
	at_sub(b, mount, path, "");
}

/* "/a/b/supervisor": its last part is the leaf ruas-setup(8) DELEGATE puts the supervisor in. */
static int is_supervisor_leaf(const char *path)
{
	const char *last = strrchr(path, '/');
	return last && last != path && strcmp(last + 1, "supervisor") == 0;
}

/*
 * A parent that holds processes: the supervisor's own cgroup (move out of
 * it, or, already in its leaf, use the cgroup above), or another's.
 */
static void internal_process(struct buf *b, const struct cgroup_place *pl,
			     const struct cgroup_judgement *j, size_t *fx)
{
	const char *m = pl->mount;
	int own = strcmp(j->where, pl->own) == 0;
	at(b, m, j->where);
	buf_printf(b, " holds processes of its own%s, and the kernel hands no controller down "
		      "from such a cgroup.\n",
		   own && pl->is_default ? " (the supervisor's own cgroup is the default)"
		   : own		 ? " (the supervisor's own cgroup)"
					 : "");
	*fx = b->len;
	if (own && is_supervisor_leaf(j->where)) {
		/* Already in its leaf (DelegateSubgroup=, or moved): the runs go above it. */
		char above[sizeof pl->own];
		snprintf(above, sizeof above, "%s", j->where);
		*strrchr(above, '/') = '\0';
		buf_adds(b, "Set cgroup_parent to the cgroup above the supervisor's leaf, ");
		at(b, m, above[0] ? above : "/");
		buf_adds(b, ": its runs then go beside it (ruas-setup(8), DELEGATE).");
		return;
	}
	if (!own) {
		buf_adds(b, "Set cgroup_parent to a cgroup that holds no process, such as the one "
			    "the supervisor's service was delegated with its supervisor in a leaf "
			    "of it (ruas-setup(8), DELEGATE), or move what runs in it into a leaf "
			    "of its own.");
		return;
	}
	buf_adds(b, "Run the supervisor in a cgroup of its own inside it (systemd 254 and later: "
		    "DelegateSubgroup=supervisor; else move it into ");
	at_sub(b, m, j->where, "/supervisor");
	if (pl->is_default) {
		/* Its own cgroup is the default: once it has left it, that is the parent. */
		buf_adds(b, " as it starts) and set cgroup_parent to ");
		at(b, m, j->where);
		buf_adds(b, ": its runs then go beside it (ruas-setup(8), DELEGATE).");
	} else {
		buf_adds(b, " as it starts): its runs then go beside it (ruas-setup(8), "
			    "DELEGATE).");
	}
}

/* The verdicts about controllers: not there, or not handed down. */
static void controllers_what_and_fix(struct buf *b, const struct cgroup_place *pl,
				     const struct cgroup_judgement *j, size_t *fx)
{
	const char *m = pl->mount;
	switch (j->verdict) {
	case CGROUP_NOT_AVAILABLE:
		buf_adds(b, "the ");
		controller_words(b, j->controllers, ", ", "");
		buf_adds(b, (j->controllers & (j->controllers - 1)) ? " controllers are"
								  : " controller is");
		buf_adds(b, " not available in ");
		at(b, m, j->where);
		buf_adds(b, " (its cgroup.controllers)");
		if (strcmp(j->where, "/") == 0) {
			/* At the top they are bound to cgroup v1 (a hybrid host), or not built. */
			buf_adds(b, ": on this host they belong to cgroup v1 hierarchies.\n");
			*fx = b->len;
			buf_adds(b, "Run the host on cgroup v2 alone (the kernel's "
				    "systemd.unified_cgroup_hierarchy=1; Debian 11 and later do by "
				    "default), or remove the limits that need them.");
			return;
		}
		buf_adds(b, ".\n");
		*fx = b->len;
		buf_adds(b, "Enable them in the cgroup above it (echo \"");
		controller_words(b, j->controllers, " ", "+");
		buf_adds(b, "\" > ABOVE/cgroup.subtree_control; systemd: Delegate=yes in the "
			    "supervisor's service), or remove the limits that need them.");
		return;
	case CGROUP_INTERNAL_PROCESS:
		internal_process(b, pl, j, fx);
		return;
	case CGROUP_CANNOT_HAND_DOWN:
		at(b, m, j->where);
		buf_adds(b, " does not hand the ");
		controller_words(b, j->controllers, ", ", "");
		buf_adds(b, " controller down (its cgroup.subtree_control), and that file is not "
			    "the supervisor's to write.\n");
		*fx = b->len;
		buf_adds(b, "Enable it there as its owner (echo \"");
		controller_words(b, j->controllers, " ", "+");
		buf_adds(b, "\" > ");
		at_sub(b, m, j->where, "/cgroup.subtree_control");
		buf_adds(b, "), or delegate that cgroup to the supervisor.");
		return;
	default:
		return;
	}
}

static void what_and_fix(struct buf *b, const struct cgroup_place *pl,
			 const struct cgroup_judgement *j, unsigned long uid, size_t *fx)
{
	const char *m = pl->mount;
	switch (j->verdict) {
	case CGROUP_NO_PARENT:
		buf_adds(b, "cgroup_parent ");
		at(b, m, j->where);
		buf_adds(b, " does not exist.\n");
		*fx = b->len;
		buf_adds(b, "Make it (mkdir, as the owner of the cgroup above it, and give it to "
			    "the supervisor), or set cgroup_parent to one that exists.");
		return;
	case CGROUP_NOT_DOMAIN:
		at(b, m, j->where);
		buf_adds(b, " is a threaded cgroup (cgroup.type), which can hold no cgroup of a "
			    "run's own.\n");
		*fx = b->len;
		buf_adds(b, "Set cgroup_parent to a domain cgroup.");
		return;
	case CGROUP_CANNOT_MKDIR:
		buf_printf(b, "the supervisor (uid %lu) cannot make a cgroup in ", uid);
		at(b, m, j->where);
		buf_adds(b, ".\n");
		*fx = b->len;
		buf_adds(b, "Give the supervisor a cgroup of its own to delegate (systemd: "
			    "Delegate=yes in its service; for a user's own, systemd-run --user -p "
			    "Delegate=yes), and set cgroup_parent to a directory in it beside the "
			    "one the supervisor runs in.");
		return;
	case CGROUP_CANNOT_MOVE:
		buf_adds(b, "the supervisor cannot move a run's first process from its cgroup ");
		at(b, m, pl->own);
		buf_adds(b, " to one beneath ");
		at(b, m, pl->parent);
		buf_adds(b, ": the kernel wants cgroup.procs of ");
		at(b, m, j->where);
		buf_adds(b, ", where the two meet, to be the supervisor's to write.\n");
		*fx = b->len;
		buf_adds(b, "Set cgroup_parent inside the supervisor's own delegated cgroup "
			    "(systemd: Delegate=yes gives it that cgroup.procs).");
		return;
	case CGROUP_OPEN_TO_OTHERS: {
		char sub[40];
		snprintf(sub, sizeof sub, "%s%s", j->file[0] ? "/" : "", j->file);
		at_sub(b, m, j->where, sub);
		buf_printf(b, " may be written by others than root and the supervisor (uid %lu): "
			      "owner uid %lu, mode %04o. Such a user could move a run out of its "
			      "cgroup or take its limits away while it runs.\n",
			   uid, j->owner, j->mode);
		*fx = b->len;
		buf_adds(b, "Set cgroup_parent to a cgroup that only the supervisor (or root) "
			    "may write, never one delegated to a target user.");
		return;
	}
	case CGROUP_NOT_AVAILABLE:
	case CGROUP_INTERNAL_PROCESS:
	case CGROUP_CANNOT_HAND_DOWN:
		controllers_what_and_fix(b, pl, j, fx);
		return;
	case CGROUP_USABLE:
	case CGROUP_UNREADABLE:
	default:
		at(b, m, j->where);
		buf_printf(b, " could not be read: %s.\n", strerror(j->err));
		*fx = b->len;
		buf_adds(b, "Set cgroup_parent to a cgroup v2 directory the supervisor can read.");
		return;
	}
}

/* "KEYS need ...: what is wrong.\n" then, from *fx, the fix (no end). */
static void unusable_body(struct buf *b, const char *keys, const struct cgroup_place *pl,
			  const char *place_why, const struct cgroup_judgement *j,
			  unsigned long supervisor_uid, size_t *fx)
{
	buf_printf(b, "%s need%s a cgroup of each run's own, and none can be made: ", keys,
		   strchr(keys, ',') ? "" : "s");
	if (place_why) {
		buf_printf(b, "%s.\n", place_why);
		*fx = b->len;
		if (pl->mount[0])
			buf_printf(b, "Set cgroup_parent to a directory beneath %s, or remove %s.",
				   pl->mount, keys);
		else
			buf_printf(b, "Run the host on cgroup v2 alone (the kernel's "
				      "systemd.unified_cgroup_hierarchy=1; Debian 11 and later do "
				      "by default), or remove %s.",
				   keys);
	} else {
		what_and_fix(b, pl, j, supervisor_uid, fx);
	}
}

struct words msg_cgroup_unusable(const char *project, const char *keys,
				 const struct cgroup_place *pl, const char *place_why,
				 const struct cgroup_judgement *j, unsigned long supervisor_uid)
{
	struct buf b = BUF_INIT;
	size_t fx;
	msg_prefix(&b, "ERROR: ", project);
	unusable_body(&b, keys, pl, place_why, j, supervisor_uid, &fx);
	return msg_then_restart(&b, fx);
}

char *msg_cgroup_unusable_line(const char *keys, const struct cgroup_place *pl,
			       const char *place_why, const struct cgroup_judgement *j,
			       unsigned long supervisor_uid)
{
	struct buf b = BUF_INIT;
	size_t fx;
	unusable_body(&b, keys, pl, place_why, j, supervisor_uid, &fx);
	/* One line: the fix after "Fix: ", as the spawn's other refusals put it. */
	struct buf line = BUF_INIT;
	size_t what = fx > 0 && b.data[fx - 1] == '\n' ? fx - 1 : fx;
	buf_add(&line, b.data, what);
	buf_adds(&line, " Fix: ");
	buf_add(&line, b.data + fx, b.len - fx);
	int oom = b.oom;
	buf_free(&b);
	if (oom) {
		buf_free(&line);
		return NULL;
	}
	return buf_detach(&line);
}
