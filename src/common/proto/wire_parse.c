/* wire_parse.c - reading ruas-exec's check report; see wire.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "payload.h"
#include "wire.h"

#define MAX_FIELDS 12

void helper_report_free(struct helper_report *r)
{
	free(r->list_out);
	free(r->tty_list_out);
	free(r->gids);
	free(r->bwrap_out);
	free(r->lifetime_why);
	for (size_t i = 0; r->dirs && i < r->ndirs; i++) {
		free(r->dirs[i].path);
		free(r->dirs[i].owner);
		scan_items_free(r->dirs[i].items, r->dirs[i].nitems);
	}
	free(r->dirs);
	for (size_t i = 0; r->anchors && i < r->nanchors; i++) {
		free(r->anchors[i].path);
		free(r->anchors[i].owner);
		free(r->anchors[i].group);
		free(r->anchors[i].anchor);
	}
	free(r->anchors);
	memset(r, 0, sizeof *r);
}

static char *unhex(const char *s)
{
	struct buf b = BUF_INIT;
	if (hex_decode(s, strlen(s), &b) < 0 || memchr(b.data ? b.data : "", 0, b.len)) {
		buf_free(&b);
		return NULL;
	}
	return buf_detach(&b);
}

static int parse_ll(const char *s, long long lo, long long hi, long long *v)
{
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (errno || end == s || *end || x < lo || x > hi)
		return -1;
	*v = x;
	return 0;
}

static int parse_octal(const char *s, unsigned int *v)
{
	char *end;
	errno = 0;
	unsigned long x = strtoul(s, &end, 8);
	if (errno || end == s || *end || x > 07777)
		return -1;
	*v = (unsigned int)x;
	return 0;
}

static struct dir_result *dir_at(struct helper_report *r, const char *s)
{
	long long i;
	if (parse_ll(s, 0, (long long)r->ndirs - 1, &i) < 0)
		return NULL;
	return &r->dirs[i];
}

static int anchor_id_ok(const char *s)
{
	size_t n = strlen(s);
	return n > 0 && n < sizeof ((struct anchor_hit *)0)->id &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

/* anchor HEX(path) HOW REL ID MODE HEX(owner) HEX(group) ACL HEX(anchor) */
static int anchor_record(struct helper_report *r, char **f)
{
	long long acl;
	if (r->anchors_seen || r->nanchors >= ANCHOR_REPORT_CAP)
		return -1;
	struct anchor_hit *a = realloc(r->anchors, (r->nanchors + 1) * sizeof *a);
	if (!a)
		return -1;
	r->anchors = a;
	a = &a[r->nanchors++];
	memset(a, 0, sizeof *a);
	if (strlen(f[2]) != 1 || !strchr("owrdc", f[2][0]) || !anchor_id_ok(f[4]) ||
	    parse_octal(f[5], &a->mode) < 0 || parse_ll(f[8], 0, 1, &acl) < 0)
		return -1;
	a->how = f[2][0];
	if (!(a->rel = wire_rel_of(f[3])))
		return -1;
	snprintf(a->id, sizeof a->id, "%s", f[4]);
	a->acl = (int)acl;
	return (a->path = unhex(f[1])) && (a->owner = unhex(f[6])) &&
			       (a->group = unhex(f[7])) && (a->anchor = unhex(f[9])) &&
			       a->path[0] == '/' && a->anchor[0] == '/'
		       ? 0
		       : -1;
}

/* esc|esctty TRUE_RC LIST_RC HEX(output) CUT */
static int esc_record(struct helper_report *r, char **f)
{
	long long a, b, c;
	int tty = f[0][3] == 't';
	int *seen = tty ? &r->esctty_seen : &r->esc_seen;
	if (parse_ll(f[1], INT_MIN, INT_MAX, &a) < 0 || parse_ll(f[2], INT_MIN, INT_MAX, &b) < 0 ||
	    parse_ll(f[4], 0, 1, &c) < 0 || *seen)
		return -1;
	*seen = 1;
	*(tty ? &r->tty_true_rc : &r->true_rc) = (int)a;
	*(tty ? &r->tty_list_rc : &r->list_rc) = (int)b;
	*(tty ? &r->tty_list_cut : &r->list_cut) = (int)c;
	char **out = tty ? &r->tty_list_out : &r->list_out;
	return (*out = unhex(f[3])) ? 0 : -1;
}

/* gids G[,G...] */
static int gids_record(struct helper_report *r, const char *list)
{
	if (r->gids_seen)
		return -1;
	r->gids_seen = 1;
	for (const char *p = list; *p;) {
		char *end;
		errno = 0;
		unsigned long g = strtoul(p, &end, 10);
		if (errno || end == p || g > 0xffffffffUL || (*end && *end != ',') ||
		    (*end == ',' && !end[1]) || r->ngids >= 65536)
			return -1;
		unsigned long *v = realloc(r->gids, (r->ngids + 1) * sizeof *v);
		if (!v)
			return -1;
		r->gids = v;
		v[r->ngids++] = g;
		p = *end ? end + 1 : end;
	}
	return r->ngids ? 0 : -1;
}

/* bwrap RC HEX(output) */
static int bwrap_record(struct helper_report *r, char **f)
{
	long long a;
	if (parse_ll(f[1], INT_MIN, INT_MAX, &a) < 0 || r->bwrap_seen)
		return -1;
	r->bwrap_seen = 1;
	r->bwrap_rc = (int)a;
	return (r->bwrap_out = unhex(f[2])) ? 0 : -1;
}

/* lifetime ERRNO HEX(why) */
static int lifetime_record(struct helper_report *r, char **f)
{
	long long a;
	if (parse_ll(f[1], 0, 4095, &a) < 0 || r->lifetime_seen)
		return -1;
	r->lifetime_seen = 1;
	r->lifetime_errno = (int)a;
	return (r->lifetime_why = unhex(f[2])) ? 0 : -1;
}

/* probe K readable|denied|missing */
static int probe_record(struct helper_report *r, char **f)
{
	long long a;
	if (parse_ll(f[1], 0, 255, &a) < 0)
		return -1;
	r->probes[a] = wire_probe_of(f[2]);
	return r->probes[a] == PROBE_UNKNOWN ? -1 : 0;
}

/* anchors TOTAL: once, after the records; more failing than listed only past the cap. */
static int anchors_record(struct helper_report *r, const char *total)
{
	long long a;
	if (r->anchors_seen || parse_ll(total, 0, LLONG_MAX, &a) < 0 ||
	    (unsigned long long)a < r->nanchors ||
	    ((unsigned long long)a > r->nanchors && r->nanchors != ANCHOR_REPORT_CAP))
		return -1;
	r->anchors_seen = 1;
	r->anchors_total = (unsigned long long)a;
	return 0;
}

/* dir I ok|denied|missing|escape ... */
static int dir_record(struct dir_result *d, char **f, int n)
{
	long long a;
	if (d->state != DIR_UNKNOWN)
		return -1;
	if (strcmp(f[2], "ok") == 0 && n == 3) {
		d->state = DIR_OK;
		return 0;
	}
	if (strcmp(f[2], "denied") == 0 && n == 7) {
		d->state = DIR_DENIED;
		if (strcmp(f[4], "r") != 0 && strcmp(f[4], "x") != 0 && strcmp(f[4], "rx") != 0)
			return -1;
		snprintf(d->missing, sizeof d->missing, "%s", f[4]);
		if (parse_octal(f[5], &d->mode) < 0)
			return -1;
		return (d->path = unhex(f[3])) && (d->owner = unhex(f[6])) ? 0 : -1;
	}
	if (strcmp(f[2], "escape") == 0 && n == 4) {
		d->state = DIR_ESCAPE;
		return (d->path = unhex(f[3])) ? 0 : -1;
	}
	if (strcmp(f[2], "missing") == 0 && n == 5) {
		d->state = DIR_MISSING;
		if (parse_ll(f[4], 0, 4095, &a) < 0)
			return -1;
		d->errnum = (int)a;
		return (d->path = unhex(f[3])) ? 0 : -1;
	}
	return -1;
}

/* item I HEX(path) FLAGS MODE HEX(owner) */
static int item_record(struct dir_result *d, char **f)
{
	long long a;
	struct scan_item *it = realloc(d->items, (d->nitems + 1) * sizeof *it);
	if (!it)
		return -1;
	d->items = it;
	it = &it[d->nitems];
	memset(it, 0, sizeof *it);
	d->nitems++;
	if (parse_ll(f[3], 1, 7, &a) < 0 || parse_octal(f[4], &it->mode) < 0)
		return -1;
	it->flags = (unsigned int)a;
	return (it->path = unhex(f[2])) && (it->owner = unhex(f[5])) ? 0 : -1;
}

/* scan I TOTAL ENTRIES INCOMPLETE */
static int scan_record(struct dir_result *d, char **f)
{
	long long a, b, c;
	if (parse_ll(f[2], 0, LLONG_MAX, &a) < 0 || parse_ll(f[3], 0, LLONG_MAX, &b) < 0 ||
	    parse_ll(f[4], 0, 1, &c) < 0 || d->scanned)
		return -1;
	d->total = (unsigned long long)a;
	d->entries = (unsigned long long)b;
	d->incomplete = (int)c;
	d->scanned = 1;
	return 0;
}

/* One record between the markers, split into its n fields: 0, or -1 when malformed. */
static int record(struct helper_report *r, char **f, int n)
{
	if ((strcmp(f[0], "esc") == 0 || strcmp(f[0], "esctty") == 0) && n == 5)
		return esc_record(r, f);
	if (strcmp(f[0], "gids") == 0 && n == 2)
		return gids_record(r, f[1]);
	if (strcmp(f[0], "bwrap") == 0 && n == 3)
		return bwrap_record(r, f);
	if (strcmp(f[0], "lifetime") == 0 && n == 3)
		return lifetime_record(r, f);
	if (strcmp(f[0], "probe") == 0 && n == 3)
		return probe_record(r, f);
	if (strcmp(f[0], "anchor") == 0 && n == 10)
		return anchor_record(r, f);
	if (strcmp(f[0], "anchors") == 0 && n == 2)
		return anchors_record(r, f[1]);
	/* The rest are about one of the payload's dirs. */
	struct dir_result *d;
	if (n < 3 || !(d = dir_at(r, f[1])))
		return -1;
	if (strcmp(f[0], "dir") == 0)
		return dir_record(d, f, n);
	if (strcmp(f[0], "item") == 0 && n == 6)
		return item_record(d, f);
	if (strcmp(f[0], "scan") == 0 && n == 5)
		return scan_record(d, f);
	return -1;
}

/* Splits a line in place on single spaces. */
static int split(char *line, char **f)
{
	int n = 0;
	for (char *p = line; n < MAX_FIELDS;) {
		f[n++] = p;
		p = strchr(p, ' ');
		if (!p)
			return n;
		*p++ = '\0';
	}
	return -1;
}

int helper_report_parse(const char *out, size_t len, const char *nonce,
			size_t ndirs, struct helper_report *r)
{
	memset(r, 0, sizeof *r);
	r->true_rc = r->list_rc = -1;
	r->ndirs = ndirs;
	r->dirs = calloc(ndirs + 1, sizeof *r->dirs);
	char *text = malloc(len + 1);
	if (!r->dirs || !text) {
		free(text);
		return -1;
	}
	memcpy(text, out, len);
	text[len] = '\0';

	int inside = 0, rc = -1;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[MAX_FIELDS];
		if (!inside) {
			/* Profile noise before the marker is ignored. */
			if (strncmp(line, WIRE_BEGIN " ", sizeof WIRE_BEGIN) == 0 &&
			    strcmp(line + sizeof WIRE_BEGIN, nonce) == 0)
				inside = 1;
			continue;
		}
		if (strncmp(line, WIRE_END " ", sizeof WIRE_END) == 0 &&
		    strcmp(line + sizeof WIRE_END, nonce) == 0) {
			r->complete = 1;
			rc = r->esc_seen && r->esctty_seen && r->anchors_seen && r->gids_seen ? 0 : -1;
			break;
		}
		int n = split(line, f);
		if (n < 1 || record(r, f, n) < 0)
			break;
	}
	free(text);
	return rc;
}
