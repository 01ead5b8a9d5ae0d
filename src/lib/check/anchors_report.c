/* SPDX-License-Identifier: ISC */
/*
 * anchors_report.c - trust anchors the target can write, as findings: what,
 * why root trusts it (src/common/anchors_table.c), and the fix, from the mode,
 * owner, group and ACL that the helper saw. Untrusted text is escaped as in
 * messages.c: paths, owner and group names come from the target's side.
 */
#include "check/anchors_report.h"

#include <string.h>

#include "anchors.h"
#include "buf.h"
#include "quote.h"
#include "check/messages_int.h"
#include "check/report.h"

/* The why of an id: the first entry of the id carries it. */
static const struct anchor_def *def_of(const char *id)
{
	const struct anchor_def *d = anchor_by_id(id);
	return d && d->why ? d : NULL;
}

static void verb(struct buf *b, const struct anchor_hit *a, const struct anchor_def *d)
{
	if (a->how == 'o')
		buf_adds(b, "owns (so it can change the mode of) ");
	else if (a->how == 'd')
		buf_adds(b, "gets write access, through a default ACL entry, to what is "
			    "created in ");
	else if (a->how == 'r')
		buf_adds(b, "can read ");
	else if (d && d->kind == ANCHOR_SOCKET && a->rel != AREL_PARENT)
		buf_adds(b, "can connect to ");
	else
		buf_adds(b, "can write ");
}

static void relation(struct buf *b, const struct anchor_hit *a)
{
	switch (a->rel) {
	case AREL_PARENT:
		buf_adds(b, ", a directory above ");
		quote_display_dq(b, a->anchor);
		buf_adds(b, " (it can rename that away and put its own in place)");
		break;
	case AREL_INSIDE:
		buf_adds(b, ", inside ");
		quote_display_dq(b, a->anchor);
		break;
	case AREL_LINK:
		buf_adds(b, ", where the symlink ");
		quote_display_dq(b, a->anchor);
		buf_adds(b, " leads");
		break;
	default:
		break;
	}
}

/* "chmod go-w P", "gpasswd -d T G", "setfacl -x u:T P": what the mode suggests. */
static void fix(struct buf *b, const char *user, const char *supervisor,
		const struct anchor_hit *a, const struct anchor_def *d)
{
	if (a->how == 'd') {
		buf_adds(b, "remove the default ACL entry that grants it: setfacl -d -x u:");
		quote_shell(b, user);
		buf_addc(b, ' ');
		quote_shell(b, a->path);
		buf_adds(b, " (getfacl ");
		quote_shell(b, a->path);
		buf_adds(b, " lists them as default:...; a group's goes with setfacl -d -x "
			    "g:GROUP).");
	} else if (a->how == 'o') {
		int sup = d && (d->flags & ANCHOR_SUPERVISOR) && a->rel != AREL_PARENT &&
			  supervisor && supervisor[0] != '#';
		buf_adds(b, "chown ");
		quote_shell(b, sup ? supervisor : "root");
		buf_addc(b, ' ');
		quote_shell(b, a->path);
		buf_adds(b, ".");
	} else {
		unsigned int bits = a->how == 'r' ? 6u : 2u; /* a readable device: rw */
		const char *perm = a->how == 'r' ? "rw" : "w";
		const char *sep = "";
		/* Others may: one chmod covers the group too. */
		if (a->mode & bits) {
			buf_printf(b, "chmod go-%s ", perm);
			quote_shell(b, a->path);
			sep = "; ";
		}
		if (a->acl) {
			buf_printf(b, "%sremove the ACL entry that grants it: setfacl -x u:", sep);
			quote_shell(b, user);
			buf_addc(b, ' ');
			quote_shell(b, a->path);
			buf_adds(b, " (getfacl ");
			quote_shell(b, a->path);
			buf_adds(b, " lists them; a group's goes with setfacl -x g:GROUP)");
			sep = "; ";
		} else if (!*sep && (a->mode & (bits << 3))) {
			buf_adds(b, "take ");
			quote_display_dq(b, user);
			buf_adds(b, " out of group ");
			quote_display_dq(b, a->group);
			buf_adds(b, " (gpasswd -d ");
			quote_shell(b, user);
			buf_addc(b, ' ');
			quote_shell(b, a->group);
			buf_printf(b, ") or chmod g-%s ", perm);
			quote_shell(b, a->path);
			sep = "; ";
		}
		if (!*sep) {
			buf_printf(b, "chmod go-%s ", perm);
			quote_shell(b, a->path);
			buf_adds(b, " and check its ACL (getfacl ");
			quote_shell(b, a->path);
			buf_adds(b, ")");
		}
		buf_adds(b, ".");
	}
	if (d && d->fix)
		buf_printf(b, " Note: %s.", d->fix);
}

/* A cap hit ('c'): what was not judged is not passed. */
static struct words msg_not_judged(const char *user, const struct anchor_hit *a,
			    const struct anchor_def *d)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: ");
	quote_display_dq(&b, a->path);
	buf_adds(&b, " was not fully judged for target user ");
	quote_display_dq(&b, user);
	size_t fx;
	if (d && (d->flags & ANCHOR_CAPPED)) {
		buf_printf(&b, ": %s.\nFix: ", d->why);
		fx = b.len;
		buf_adds(&b, d->fix);
	} else {
		buf_printf(&b, ": the trees of trust anchors hold more than %u entries in all "
			       "and the check stopped in this one, which root or the "
			       "supervisor runs or trusts: %s.\nFix: ",
			   ANCHOR_TREE_ENTRIES_MAX, d ? d->why : "(an entry this version of ruas does not know)");
		fx = b.len;
		buf_adds(&b, "remove what does not belong there, or check the rest by hand");
	}
	buf_adds(&b, ".");
	return msg_then_restart(&b, fx);
}

/*
 * A directory of a tree that the supervisor could not list and the target
 * may enter ('h'): what is inside was not judged.
 */
static struct words msg_hidden(const char *user, const char *supervisor, const struct anchor_hit *a,
			const struct anchor_def *d)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: ");
	quote_display_dq(&b, a->path);
	buf_adds(&b, ", inside ");
	quote_display_dq(&b, a->anchor);
	buf_adds(&b, ", was not judged for target user ");
	quote_display_dq(&b, user);
	buf_adds(&b, ": the supervisor ");
	quote_display_dq(&b, supervisor ? supervisor : "?");
	buf_printf(&b, " cannot list it and the target can enter it (mode %04o, owner ",
		   a->mode);
	quote_display_dq(&b, a->owner);
	buf_adds(&b, ", group ");
	quote_display_dq(&b, a->group);
	buf_adds(&b, a->acl ? ", an ACL)" : ")");
	buf_printf(&b, ", and root runs or trusts what it holds: %s.\nFix: ",
		   d ? d->why : "(an entry this version of ruas does not know)");
	size_t fx = b.len;
	buf_adds(&b, "run ruas check as root, which can list it; or let the supervisor read it "
		     "(setfacl -m u:");
	quote_shell(&b, supervisor ? supervisor : "?");
	buf_adds(&b, ":rx ");
	quote_shell(&b, a->path);
	buf_adds(&b, "); or take the target's way in away (chmod o-x ");
	quote_shell(&b, a->path);
	buf_adds(&b, " or the group's).");
	return msg_then_restart(&b, fx);
}

/*
 * A directory of the table's trees that the library's walk could not look
 * into ('u'), for a target that can get in; a->anchor says why.
 */
static struct words msg_unjudged(const char *user, const struct anchor_hit *a,
			  const struct anchor_def *d)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: ");
	quote_display_dq(&b, a->path);
	buf_adds(&b, " was not judged for target user ");
	quote_display_dq(&b, user);
	buf_printf(&b, ": %s", a->anchor);
	if (d && d->why)
		buf_printf(&b, ", and root runs or trusts what it holds: %s", d->why);
	buf_adds(&b, ".\nFix: ");
	size_t fx = b.len;
	buf_adds(&b, "look at it by hand and make it readable to the supervisor (or run "
		     "ruas check as root); keep what root runs on a local file system. What is "
		     "not judged is not passed.");
	return msg_then_restart(&b, fx);
}

/* The walk of the trees ran out of time ('t'): a->path lists them, a->anchor the seconds. */
static struct words msg_trees_late(const char *user, const struct anchor_hit *a)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: the trees that root trusts (");
	buf_adds(&b, a->path);
	buf_adds(&b, ") were not fully judged for target user ");
	quote_display_dq(&b, user);
	buf_printf(&b, ": the walk stopped after scan_time_limit (%s seconds).\nFix: ", a->anchor);
	size_t fx = b.len;
	buf_adds(&b, "remove what does not belong in those trees, or raise scan_time_limit in the "
		     "configuration.");
	return msg_then_restart(&b, fx);
}

struct words msg_anchor(const char *user, const char *supervisor, const struct anchor_hit *a)
{
	struct buf b = BUF_INIT;
	const struct anchor_def *d = def_of(a->id);
	if (a->how == 'c')
		return msg_not_judged(user, a, d);
	if (a->how == 'h')
		return msg_hidden(user, supervisor, a, d);
	if (a->how == 't')
		return msg_trees_late(user, a);
	if (a->how == 'u')
		return msg_unjudged(user, a, d);
	buf_adds(&b, "ERROR: target user ");
	quote_display_dq(&b, user);
	buf_addc(&b, ' ');
	verb(&b, a, d);
	quote_display_dq(&b, a->path);
	relation(&b, a);
	if (d && (d->flags & ANCHOR_SUPERVISOR)) {
		buf_adds(&b, ", which the supervisor ");
		quote_display_dq(&b, supervisor ? supervisor : "?");
		buf_adds(&b, " runs or trusts");
	} else {
		buf_adds(&b, ", which root runs or trusts");
	}
	buf_adds(&b, ": ");
	if (d)
		buf_adds(&b, d->why);
	else
		buf_adds(&b, "(an entry this version of ruas does not know)");
	buf_printf(&b, ".\nIt has mode %04o, owner ", a->mode);
	quote_display_dq(&b, a->owner);
	buf_adds(&b, ", group ");
	quote_display_dq(&b, a->group);
	buf_adds(&b, a->acl ? " and an ACL.\nFix: " : ".\nFix: ");
	size_t fx = b.len;
	fix(&b, user, supervisor, a, d);
	return msg_then_restart(&b, fx);
}

struct words msg_anchors_more(const char *user, unsigned long long more)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: target user ");
	quote_display_dq(&b, user);
	buf_printf(&b, " can write %llu more paths that root or the supervisor runs or "
		       "trusts, beyond the %u listed.\n", more, ANCHOR_REPORT_CAP);
	size_t fx = b.len;
	buf_adds(&b, "Fix those, then run ruas check again to see the rest.\n");
	return msg_words(&b, fx, b.len);
}

int report_anchors(ruas_report *rep, size_t idx, const char *user,
		   const char *supervisor, const struct helper_report *hr)
{
	int r = 0;
	if (!hr)
		return 0;
	for (size_t i = 0; i < hr->nanchors; i++)
		r |= report_add(rep, idx, RUAS_SEVERITY_FATAL, "anchors", user, hr->anchors[i].path,
				msg_anchor(user, supervisor, &hr->anchors[i]));
	if (hr->anchors_total > hr->nanchors)
		r |= report_add(rep, idx, RUAS_SEVERITY_FATAL, "anchors", user, NULL,
				msg_anchors_more(user, hr->anchors_total - hr->nanchors));
	return r;
}
