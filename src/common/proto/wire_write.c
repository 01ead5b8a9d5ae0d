/* wire_write.c - writing ruas-exec's check report; see wire_write.h and the grammar in wire.h. */
#include <string.h>

#include "buf.h"
#include "payload.h"
#include "wire_write.h"

static void put_hex(FILE *out, const char *s)
{
	struct buf b = BUF_INIT;
	hex_encode(&b, s, strlen(s));
	fputs(b.data ? b.data : "", out);
	buf_free(&b);
}

void wire_write_begin(FILE *out, const char *nonce)
{
	fprintf(out, "\n%s %s\n", WIRE_BEGIN, nonce);
}

void wire_write_end(FILE *out, const char *nonce)
{
	fprintf(out, "%s %s\n", WIRE_END, nonce);
}

void wire_write_esc(FILE *out, int tty, int true_rc, int list_rc, const char *list, int cut)
{
	fprintf(out, "%s %d %d ", tty ? "esctty" : "esc", true_rc, list_rc);
	put_hex(out, list ? list : "");
	fprintf(out, " %d\n", cut);
}

void wire_write_gids(FILE *out, gid_t egid, const gid_t *groups, int n)
{
	fprintf(out, "gids %u", (unsigned)egid);
	for (int i = 0; i < n; i++)
		fprintf(out, ",%u", (unsigned)groups[i]);
	if (n < 0)
		fputs(",?", out);
	fputc('\n', out);
}

void wire_write_dir(FILE *out, size_t idx, const struct dir_result *d)
{
	const char *path = d->path ? d->path : "?";
	switch (d->state) {
	case DIR_ESCAPE:
		fprintf(out, "dir %zu escape ", idx);
		put_hex(out, path);
		fputc('\n', out);
		break;
	case DIR_DENIED:
		fprintf(out, "dir %zu denied ", idx);
		put_hex(out, path);
		fprintf(out, " %s %o ", d->missing, d->mode);
		put_hex(out, d->owner ? d->owner : "?");
		fputc('\n', out);
		break;
	case DIR_MISSING:
		fprintf(out, "dir %zu missing ", idx);
		put_hex(out, path);
		fprintf(out, " %d\n", d->errnum);
		break;
	default:
		fprintf(out, "dir %zu ok\n", idx);
		break;
	}
}

void wire_write_item(FILE *out, size_t idx, const struct scan_item *it)
{
	fprintf(out, "item %zu ", idx);
	put_hex(out, it->path);
	fprintf(out, " %u %o ", it->flags, it->mode);
	put_hex(out, it->owner);
	fputc('\n', out);
}

void wire_write_scan(FILE *out, size_t idx, unsigned long long total,
		     unsigned long long entries, int incomplete)
{
	fprintf(out, "scan %zu %llu %llu %d\n", idx, total, entries, incomplete);
}

void wire_write_bwrap(FILE *out, int rc, const char *output)
{
	fprintf(out, "bwrap %d ", rc);
	put_hex(out, output ? output : "");
	fputc('\n', out);
}

void wire_write_probe(FILE *out, size_t idx, int verdict)
{
	fprintf(out, "probe %zu %s\n", idx, wire_probe_word(verdict));
}

void wire_write_anchor(FILE *out, const struct wire_anchor *a)
{
	fputs("anchor ", out);
	put_hex(out, a->path);
	fprintf(out, " %c %s %s %o ", a->how, wire_rel_word(a->rel), a->id, a->mode);
	put_hex(out, a->owner ? a->owner : "?");
	fputc(' ', out);
	put_hex(out, a->group ? a->group : "?");
	fprintf(out, " %d ", a->acl);
	put_hex(out, a->anchor);
	fputc('\n', out);
}

void wire_write_anchors(FILE *out, size_t total)
{
	fprintf(out, "anchors %zu\n", total);
}

void wire_write_lifetime(FILE *out, int errnum, const char *why)
{
	fprintf(out, "lifetime %d ", errnum);
	put_hex(out, why ? why : "");
	fputc('\n', out);
}
