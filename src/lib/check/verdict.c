/* SPDX-License-Identifier: ISC */
/* verdict.c - a whole check's passing verdict, kept (verdict.h). */
#include "check/verdict.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "account.h"
#include "buf.h"
#include "check/report.h"
#include "host/cache.h"
#include "host/verdict.h"
#include "host/kept.h"

#define VERDICT_MAGIC "ruas-verdict 1\n"
#define VERDICT_MAX (4u << 20)

/* Files and directories whose change can change a check's verdict. */
static const char *const watched[] = {
	"/etc/sudoers", "/etc/sudoers.d", "/etc/sudo.conf", "/etc/pam.d", "/etc/security",
	"/etc/security/limits.d",
	"/etc/passwd", "/etc/group", "/etc/shadow", "/etc/gshadow", "/etc/nsswitch.conf",
	"/etc/login.defs", "/etc/doas.conf", "/etc/polkit-1/rules.d", "/run/polkit-1/rules.d",
	"/usr/local/share/polkit-1/rules.d", "/usr/share/polkit-1/rules.d",
	"/etc/polkit-1/localauthority", "/var/lib/polkit-1/localauthority", "/etc/ld.so.preload",
	"/etc/ld.so.conf", "/etc/ld.so.conf.d", "/var/lib/systemd/linger", "/etc/cron.allow",
	"/etc/cron.deny", "/etc/at.allow", "/etc/at.deny", "/var/spool/cron/crontabs",
	"/var/spool/cron/atjobs", "/proc/sys/kernel/random/boot_id", NULL};
/* Of those, the directories whose entries are each watched too (where they can be listed). */
static const char *const listed[] = {"/etc/sudoers.d", "/etc/pam.d", "/etc/security",
				     "/etc/security/limits.d", NULL};

/* The checks' ids, so that a kept report's ids are the library's own strings. */
static const char *const checks[] = {
	"account", "anchors", "audit",	"audit_log", "bwrap",	 "containment", "escalation",
	"groups",  "lifetime", "limits", "pam",	"password",  "people",	 "polkit",	"scan",
	"sudo",	   "work_dir", "refused", NULL};

void verdict_sig(struct buf *k, const char *what, const char *path)
{
	struct stat st;
	buf_printf(k, "%s ", what);
	buf_add(k, path, strlen(path) + 1); /* with its NUL: no path can end early */
	if (lstat(path, &st) < 0) {
		buf_printf(k, " - %d\n", errno);
		return;
	}
	buf_printf(k, " %llu %llu %o %u %u %lld %lld.%09ld %lld.%09ld\n",
		   (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
		   (unsigned int)st.st_mode, (unsigned int)st.st_uid, (unsigned int)st.st_gid,
		   (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		   (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

void verdict_sig_entries(struct buf *k, const char *dir)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, by_name);
	for (int i = 0; i < n; i++) {
		struct buf p = BUF_INIT;
		buf_printf(&p, "%s/%s", dir, names[i]->d_name);
		if (!p.oom && names[i]->d_name[0] != '.')
			verdict_sig(k, "entry", p.data);
		k->oom |= p.oom;
		buf_free(&p);
		free(names[i]);
	}
	free(names);
}

/* Each target once: its uid, gid and groups. */
static void sig_targets(struct buf *k, const ruas_config *cfg)
{
	for (size_t i = 0; i < cfg->nprojects; i++) {
		const char *u = cfg->projects[i]->run_as_user;
		int seen = 0;
		for (size_t j = 0; u && j < i; j++)
			seen |= cfg->projects[j]->run_as_user &&
				strcmp(cfg->projects[j]->run_as_user, u) == 0;
		if (!u || seen)
			continue;
		struct account a;
		gid_t *gids = NULL;
		int ng = 0;
		if (account_lookup(u, &a) != ACCOUNT_FOUND) {
			buf_printf(k, "target %s -\n", u);
			continue;
		}
		buf_printf(k, "target %s %u %u %s %s", u, (unsigned int)a.uid, (unsigned int)a.gid,
			   a.home ? a.home : "-", a.shell ? a.shell : "-");
		if (account_gids(&a, &gids, &ng) == 0)
			for (int g = 0; g < ng; g++)
				buf_printf(k, " %u", (unsigned int)gids[g]);
		else
			buf_adds(k, " ?");
		buf_addc(k, '\n');
		free(gids);
		account_clear(&a);
	}
}

/* The key: everything the verdict was judged on, as text. 0, or -1 (no verdict kept or read). */
static int key_of(const ruas_config *cfg, struct buf *k)
{
	if (!cfg->file_id.set || !cfg->host_check_interval)
		return -1;
	buf_adds(k, VERDICT_MAGIC);
	buf_printf(k, "euid %u\n", (unsigned int)geteuid());
	/* The hard limits the targets' runs start from, which the limits check judges. */
	struct rlimit nofile, fsize;
	if (getrlimit(RLIMIT_NOFILE, &nofile) < 0 || getrlimit(RLIMIT_FSIZE, &fsize) < 0)
		return -1;
	buf_printf(k, "rlimits %llu %llu\nconfig ", (unsigned long long)nofile.rlim_max,
		   (unsigned long long)fsize.rlim_max);
	buf_add(k, cfg->path, strlen(cfg->path) + 1);
	buf_printf(k, " %llu %llu %lld %lld.%09ld %lld.%09ld\n",
		   (unsigned long long)cfg->file_id.dev, (unsigned long long)cfg->file_id.ino,
		   (long long)cfg->file_id.size, (long long)cfg->file_id.mtime.tv_sec,
		   cfg->file_id.mtime.tv_nsec, (long long)cfg->file_id.ctime.tv_sec,
		   cfg->file_id.ctime.tv_nsec);
	verdict_sig(k, "sudo", cfg->sudo ? cfg->sudo : RUAS_SUDO_PATH);
	verdict_sig(k, "helper", cfg->helper ? cfg->helper : RUAS_HELPER_PATH);
	verdict_sig(k, "session", cfg->session_helper ? cfg->session_helper : RUAS_SESSION_PATH);
	for (const char *const *w = watched; *w; w++)
		verdict_sig(k, "file", *w);
	for (const char *const *d = listed; *d; d++)
		verdict_sig_entries(k, *d);
	for (size_t i = 0; i < cfg->nprojects; i++)
		if (cfg->projects[i]->work_dir)
			verdict_sig(k, "work_dir", cfg->projects[i]->work_dir);
	char mem[16384];
	struct passwd pw, *res = NULL;
	if (getpwuid_r(geteuid(), &pw, mem, sizeof mem, &res) == 0 && res && res->pw_dir)
		verdict_sig(k, "home", res->pw_dir);
	sig_targets(k, cfg);
	return k->oom ? -1 : 0;
}

/* "S N\n", N 0 for NULL, else the length and one, then the bytes and "\n". */
static void put_opt(struct buf *b, const char *s)
{
	buf_printf(b, "S %zu\n", s ? strlen(s) + 1 : 0);
	if (s) {
		buf_adds(b, s);
		buf_addc(b, '\n');
	}
}

/* What put_opt() wrote: *out the string or NULL; c->bad when it is not there. */
static void get_opt(struct kept_cur *c, char **out)
{
	*out = NULL;
	kept_lit(c, "S ");
	unsigned long long n = kept_num(c);
	kept_lit(c, "\n");
	if (n && !c->bad) {
		*out = kept_bytes(c, n - 1);
		kept_lit(c, "\n");
		c->bad |= !*out;
	}
}

static void put_report(struct buf *b, const ruas_report *rep)
{
	size_t n = ruas_report_project_count(rep);
	buf_printf(b, "N %zu\n", n);
	for (size_t p = 0; p < n; p++) {
		const char *name = ruas_report_project_name(rep, p);
		size_t items = ruas_report_item_count(rep, p);
		buf_printf(b, "P %zu %zu:", items, strlen(name));
		buf_adds(b, name);
		buf_addc(b, '\n');
		for (size_t i = 0; i < items; i++) {
			const char *text = ruas_report_item_text(rep, p, i);
			buf_printf(b, "I %d %s %zu\n", (int)ruas_report_item_severity(rep, p, i),
				   ruas_report_item_check(rep, p, i), strlen(text));
			buf_adds(b, text);
			buf_addc(b, '\n');
			put_opt(b, ruas_report_item_user(rep, p, i));
			put_opt(b, ruas_report_item_path(rep, p, i));
			put_opt(b, ruas_report_item_fix(rep, p, i));
		}
	}
}

int verdict_key(const ruas_config *cfg, struct buf *k)
{
	int r = key_of(cfg, k);
	return r < 0 || k->oom ? -1 : 0;
}

void verdict_keep(const ruas_config *cfg, const struct buf *k, const ruas_report *rep)
{
	struct buf b = BUF_INIT;
	if (ruas_report_has_fatal(rep))
		return;
	kept_head(&b, k);
	put_report(&b, rep);
	char name[64];
	kept_name("verdict", cfg->path, name, sizeof name); /* one per configuration path */
	kept_store(name, &b);
	buf_free(&b);
}

static const char *check_id(const char *s)
{
	for (const char *const *c = checks; *c; c++)
		if (strcmp(*c, s) == 0)
			return *c;
	return NULL;
}

/* The report kept after the key, for cfg's projects in order; NULL when it is not. */
static ruas_report *read_report(struct kept_cur *c, const ruas_config *cfg)
{
	const char **names = calloc(cfg->nprojects + 1, sizeof *names);
	ruas_report *rep = NULL;
	if (!names)
		return NULL;
	for (size_t i = 0; i < cfg->nprojects; i++)
		names[i] = cfg->projects[i]->name;
	kept_lit(c, "N ");
	if (kept_num(c) != cfg->nprojects || !(rep = report_new(names, cfg->nprojects)))
		c->bad = 1;
	kept_lit(c, "\n");
	for (size_t p = 0; !c->bad && p < cfg->nprojects; p++) {
		kept_lit(c, "P ");
		unsigned long long items = kept_num(c);
		kept_lit(c, " ");
		unsigned long long nl = kept_num(c);
		kept_lit(c, ":");
		char *name = kept_bytes(c, nl);
		c->bad |= !name || strcmp(name, names[p]) != 0;
		free(name);
		kept_lit(c, "\n");
		for (unsigned long long i = 0; !c->bad && i < items; i++) {
			kept_lit(c, "I ");
			unsigned long long sev = kept_num(c);
			kept_lit(c, " ");
			size_t idl = strcspn(c->p, " \n");
			char id[32];
			snprintf(id, sizeof id, "%.*s", (int)(idl < sizeof id ? idl : 0), c->p);
			c->p += idl < (size_t)(c->end - c->p) ? idl : 0;
			const char *check = check_id(id);
			kept_lit(c, " ");
			unsigned long long tl = kept_num(c);
			kept_lit(c, "\n");
			struct words w = {kept_bytes(c, tl), NULL};
			char *user, *path;
			kept_lit(c, "\n");
			get_opt(c, &user);
			get_opt(c, &path);
			get_opt(c, &w.fix);
			if (c->bad || !check || sev != RUAS_SEVERITY_WARNING)
				words_free(&w); /* report_add() takes NULL words as a failure */
			if (report_add(rep, p, RUAS_SEVERITY_WARNING, check, user, path, w) < 0)
				c->bad = 1;
			free(user);
			free(path);
		}
	}
	free(names);
	if (c->bad || c->p != c->end) {
		ruas_report_free(rep);
		return NULL;
	}
	return rep;
}

/* Do the trees (their kept walk looked at again) give any target anything? 1 yes (or unsure), 0 no. */
static int trees_give(const ruas_config *cfg)
{
	struct host_trees t;
	if (host_cache_walk(NULL, cfg->scan_time_limit, cfg->host_check_interval, 0, NULL, &t) < 0)
		return 1;
	int gives = t.incomplete;
	for (size_t i = 0; !gives && i < cfg->nprojects; i++) {
		const char *u = cfg->projects[i]->run_as_user;
		struct account a;
		gid_t *gids = NULL;
		int ng = 0;
		if (!u || account_lookup(u, &a) != ACCOUNT_FOUND) {
			gives = u != NULL;
			continue;
		}
		struct helper_report hr;
		memset(&hr, 0, sizeof hr);
		gives = account_gids(&a, &gids, &ng) < 0 ||
			host_verdict_add(&t, NULL, u, a.uid, gids, (size_t)ng, cfg->scan_time_limit, &hr) < 0 ||
			hr.anchors_total > 0;
		helper_report_free(&hr);
		free(gids);
		account_clear(&a);
	}
	host_trees_free(&t);
	return gives;
}

ruas_report *verdict_reuse(const ruas_config *cfg)
{
	struct buf k = BUF_INIT, b = BUF_INIT;
	ruas_report *rep = NULL;
	char name[64];
	struct kept_cur c;
	kept_name("verdict", cfg->path, name, sizeof name); /* one per configuration path */
	if (key_of(cfg, &k) < 0)
		buf_free(&k); /* no key: nothing is read */
	kept_keyed_read(name, VERDICT_MAX, &k, cfg->host_check_interval, &b, &c);
	if (!c.bad)
		rep = read_report(&c, cfg);
	buf_free(&k);
	buf_free(&b);
	if (rep && trees_give(cfg)) {
		ruas_report_free(rep);
		rep = NULL;
	}
	return rep;
}
