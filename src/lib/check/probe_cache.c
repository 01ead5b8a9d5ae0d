/* SPDX-License-Identifier: ISC */
/* probe_cache.c - see probe_cache.h. */
#include "check/probe_cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "check/verdict.h"
#include "host/cache.h"
#include "host/kept.h"

#define PROBES_MAGIC "ruas-probes 1\n"
#define PROBES_MAX (4u << 20)
#define SUDO_BIN "/usr/bin/sudo"
#define PASSWD_BIN "/usr/bin/passwd"
#define DOAS_BIN "/usr/bin/doas"

/* What decides the probes' answers. */
static const char *const decides[] = {
	SUDO_BIN, PASSWD_BIN, DOAS_BIN, "/etc/sudoers", "/etc/sudoers.d", "/etc/sudo.conf",
	"/etc/sudo_logsrvd.conf", "/etc/nsswitch.conf", "/etc/passwd", "/etc/group", "/etc/shadow",
	"/etc/gshadow", "/etc/doas.conf", "/etc/pam.d", "/etc/security", "/etc/login.defs",
	"/etc/hostname", "/etc/hosts", "/proc/sys/kernel/random/boot_id", NULL};
static const char *const listed[] = {"/etc/sudoers.d", "/etc/pam.d", "/etc/security", NULL};

/* Does nsswitch.conf take sudoers from anything but files? 1 (or unsure), 0. */
static int sudoers_elsewhere(void)
{
	FILE *f = fopen("/etc/nsswitch.conf", "re");
	char line[512];
	int other = 0;
	if (!f)
		return errno != ENOENT;
	while (fgets(line, sizeof line, f)) {
		const char *p = line + strspn(line, " \t");
		if (strncmp(p, "sudoers", 7) != 0 || (p[7] != ':' && p[7] != ' ' && p[7] != '\t'))
			continue;
		p = strchr(p, ':');
		for (p = p ? p + 1 : ""; *p && *p != '#' && *p != '\n';) {
			size_t n = strcspn(p, " \t\n#");
			if (n && !(n == 5 && strncmp(p, "files", 5) == 0))
				other = 1;
			p += n ? n : 1;
		}
	}
	fclose(f);
	return other;
}

int probe_cache_host_key(struct buf *k)
{
	if (sudoers_elsewhere())
		return -1;
	char host[256] = "";
	(void)gethostname(host, sizeof host - 1);
	buf_adds(k, PROBES_MAGIC);
	buf_printf(k, "euid %u\nhost ", (unsigned int)geteuid());
	buf_add(k, host, strlen(host) + 1);
	buf_addc(k, '\n');
	for (const char *const *d = decides; *d; d++)
		verdict_sig(k, "file", *d);
	for (const char *const *d = listed; *d; d++)
		verdict_sig_entries(k, *d);
	return k->oom ? -1 : 0;
}

int probe_cache_key(const struct buf *host, const char *user, struct buf *k)
{
	struct account a;
	gid_t *gids = NULL;
	int ng = 0;
	if (account_lookup(user, &a) != ACCOUNT_FOUND)
		return -1;
	int r = account_gids(&a, &gids, &ng);
	if (r == 0) {
		buf_add(k, host->data, host->len);
		buf_adds(k, "user ");
		buf_add(k, user, strlen(user) + 1);
		buf_printf(k, " %u %u", (unsigned int)a.uid, (unsigned int)a.gid);
		for (int g = 0; g < ng; g++)
			buf_printf(k, " %u", (unsigned int)gids[g]);
		buf_addc(k, '\n');
	}
	free(gids);
	account_clear(&a);
	return r == 0 && !k->oom ? 0 : -1;
}

void probe_cache_give(struct helper_report *hr, struct helper_report *kept)
{
	hr->esc_seen = kept->esc_seen;
	hr->true_rc = kept->true_rc;
	hr->list_rc = kept->list_rc;
	hr->list_cut = kept->list_cut;
	hr->esctty_seen = kept->esctty_seen;
	hr->tty_true_rc = kept->tty_true_rc;
	hr->tty_list_rc = kept->tty_list_rc;
	hr->tty_list_cut = kept->tty_list_cut;
	hr->passwd_seen = kept->passwd_seen;
	hr->passwd_rc = kept->passwd_rc;
	hr->doas_seen = kept->doas_seen;
	hr->doas_rc = kept->doas_rc;
	free(hr->list_out);
	free(hr->tty_list_out);
	free(hr->passwd_out);
	free(hr->doas_out);
	hr->list_out = kept->list_out;
	hr->tty_list_out = kept->tty_list_out;
	hr->passwd_out = kept->passwd_out;
	hr->doas_out = kept->doas_out;
	kept->list_out = kept->tty_list_out = kept->passwd_out = kept->doas_out = NULL;
}

static void put_str(struct buf *b, const char *tag, const char *s)
{
	buf_printf(b, "%s %zu\n", tag, s ? strlen(s) : 0);
	if (s)
		buf_adds(b, s);
	buf_addc(b, '\n');
}

/* An exit code of a probe that ran and exited on its own (probes.c: 128+N is a signal). */
static int exited(int rc)
{
	return rc >= 0 && rc < 126;
}

void probe_cache_store(const struct buf *key, const char *user, const struct helper_report *hr)
{
	if (!hr->complete || !hr->esc_seen || !hr->esctty_seen || !hr->passwd_seen ||
	    !exited(hr->true_rc) || !exited(hr->list_rc) || !exited(hr->tty_true_rc) ||
	    !exited(hr->tty_list_rc) || !exited(hr->passwd_rc) ||
	    (hr->doas_seen && !exited(hr->doas_rc)))
		return;
	struct buf b = BUF_INIT;
	kept_head(&b, key);
	buf_printf(&b, "R %d %d %d %d %d %d %d %d %d\n", hr->true_rc, hr->list_rc, hr->list_cut,
		   hr->tty_true_rc, hr->tty_list_rc, hr->tty_list_cut, hr->passwd_rc, hr->doas_seen,
		   hr->doas_seen ? hr->doas_rc : 0);
	put_str(&b, "L", hr->list_out);
	put_str(&b, "Y", hr->tty_list_out);
	put_str(&b, "P", hr->passwd_out);
	put_str(&b, "D", hr->doas_out);
	char name[64];
	kept_name("probes", user, name, sizeof name);
	kept_store(name, &b);
	buf_free(&b);
}

static int get_int(struct kept_cur *c)
{
	int neg = c->p < c->end && *c->p == '-';
	if (neg)
		c->p++;
	unsigned long long v = kept_num(c);
	if (v > 1000000)
		c->bad = 1;
	return neg ? -(int)v : (int)v;
}

static char *get_str(struct kept_cur *c, const char *tag)
{
	kept_lit(c, tag);
	kept_lit(c, " ");
	unsigned long long n = kept_num(c);
	kept_lit(c, "\n");
	char *s = kept_bytes(c, n);
	kept_lit(c, "\n");
	return s;
}

int probe_cache_load(const struct buf *key, const char *user, unsigned int interval,
		     struct helper_report *hr)
{
	struct buf b = BUF_INIT;
	char name[64];
	struct kept_cur c;
	kept_name("probes", user, name, sizeof name);
	kept_keyed_read(name, PROBES_MAX, key, interval, &b, &c);
	kept_lit(&c, "R ");
	int v[9];
	for (int i = 0; i < 9; i++) {
		if (i)
			kept_lit(&c, " ");
		v[i] = get_int(&c);
	}
	kept_lit(&c, "\n");
	char *list = get_str(&c, "L"), *tty = get_str(&c, "Y"), *pw = get_str(&c, "P"),
	     *doas = get_str(&c, "D");
	int ok = !c.bad && c.p == c.end;
	if (ok) {
		free(hr->list_out);
		free(hr->tty_list_out);
		free(hr->passwd_out);
		free(hr->doas_out);
		hr->esc_seen = hr->esctty_seen = hr->passwd_seen = 1;
		hr->true_rc = v[0];
		hr->list_rc = v[1];
		hr->list_cut = v[2];
		hr->tty_true_rc = v[3];
		hr->tty_list_rc = v[4];
		hr->tty_list_cut = v[5];
		hr->passwd_rc = v[6];
		hr->doas_seen = v[7] != 0;
		hr->doas_rc = v[7] ? v[8] : 0;
		hr->list_out = list;
		hr->tty_list_out = tty;
		hr->passwd_out = pw;
		hr->doas_out = doas;
	} else {
		free(list);
		free(tty);
		free(pw);
		free(doas);
	}
	buf_free(&b);
	return ok;
}
