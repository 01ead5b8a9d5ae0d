/* SPDX-License-Identifier: ISC */
/* messages_groups.c - the texts of the groups check: root-equivalent groups of the target. */
#include "check/messages.h"

#include "buf.h"
#include "check/messages_int.h"
#include "quote.h"

/* The contract line of the groups warning (issue 1); `groups` is ", "-separated. */
static void root_groups_line(struct buf *b, const char *project, const char *user,
			     const char *groups)
{
	msg_prefix(b, "WARNING: ", project);
	buf_adds(b, "target user ");
	q(b, user);
	buf_printf(b, " is a member of %s, which give root or its equivalent "
		      "(some without a password).\n", groups);
}

struct words msg_root_groups(const char *project, const char *user, const char *groups)
{
	struct buf b = BUF_INIT;
	root_groups_line(&b, project, user, groups);
	size_t fx = b.len;
	buf_printf(&b, "Remove it from them, for example: gpasswd -d %s GROUP\n", user);
	return msg_words(&b, fx, b.len);
}

/* "docker", or for gid 0 "root (gid 0)", or "gid 0" when it has no name. */
static void group_label(struct buf *b, const struct group_hit *h)
{
	if (h->name)
		quote_display(b, h->name, 0);
	if (h->gid == 0)
		buf_adds(b, h->name ? " (gid 0)" : "gid 0");
}

/* The hits of severity sev: "a, b" on one line, then "  a: why" lines. */
static size_t group_lines(struct buf *list, struct buf *whys, const struct group_hit *h,
			  size_t n, ruas_severity sev)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (h[i].severity != sev)
			continue;
		if (k++)
			buf_adds(list, ", ");
		group_label(list, &h[i]);
		buf_adds(whys, "  ");
		group_label(whys, &h[i]);
		buf_printf(whys, "%s: %s.\n",
			   h[i].primary   ? ", its primary group"
			   : h[i].session ? ", granted at login by PAM (pam_group?), not by the group database"
					  : "",
			   h[i].why);
	}
	return k;
}

struct words msg_group_warning(const char *project, const char *user,
			const struct group_hit *h, size_t n)
{
	struct buf b = BUF_INIT, list = BUF_INIT, whys = BUF_INIT;
	group_lines(&list, &whys, h, n, RUAS_SEVERITY_WARNING);
	root_groups_line(&b, project, user, list.data ? list.data : "");
	buf_adds(&b, whys.data ? whys.data : "");
	size_t fx = b.len;
	buf_printf(&b, "Remove it from them, for example: gpasswd -d %s GROUP\n", user);
	if (list.oom || whys.oom)
		b.oom = 1;
	buf_free(&list);
	buf_free(&whys);
	return msg_words(&b, fx, b.len);
}

struct words msg_group_fatal(const char *project, const char *user,
		      const struct group_hit *h, size_t n)
{
	struct buf b = BUF_INIT, list = BUF_INIT, whys = BUF_INIT;
	group_lines(&list, &whys, h, n, RUAS_SEVERITY_FATAL);
	msg_prefix(&b, "ERROR: ", project);
	buf_adds(&b, "target user ");
	q(&b, user);
	buf_printf(&b, " is a member of %s, which give root without a password.\n",
		   list.data ? list.data : "");
	buf_adds(&b, whys.data ? whys.data : "");
	buf_adds(&b, "The user-spawn sandbox provides no isolation if the spawned agent "
		     "can become root. ");
	size_t fx = b.len;
	buf_adds(&b, "Take the user out of them:\n");
	for (size_t i = 0; i < n; i++) {
		if (h[i].severity != RUAS_SEVERITY_FATAL)
			continue;
		if (h[i].member && h[i].name) {
			buf_printf(&b, "  gpasswd -d %s ", user);
			quote_shell(&b, h[i].name);
			buf_addc(&b, '\n');
		} else if (h[i].member) {
			buf_printf(&b, "  remove %s from group %lu in the group database\n",
				   user, h[i].gid);
		}
		if (h[i].session) {
			buf_adds(&b, "  remove what grants ");
			group_label(&b, &h[i]);
			buf_printf(&b, " to %s at login (pam_group: /etc/security/group.conf, "
				       "or another PAM module of the sudo or ruas service)\n",
				   user);
		}
		if (h[i].primary)
			buf_printf(&b, "  usermod -g %s %s   (a group of its own as the "
				       "primary group; create it first with groupadd %s if "
				       "there is none)\n",
				   user, user, user);
	}
	if (list.oom || whys.oom)
		b.oom = 1;
	buf_free(&list);
	buf_free(&whys);
	return msg_words(&b, fx, b.len);
}
