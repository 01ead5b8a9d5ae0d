/* payload.c - encoding of the helper's payload; see payload.h. */
#include "payload.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

static const char hexdigits[] = "0123456789abcdef";

int hex_encode(struct buf *out, const void *data, size_t len)
{
	const unsigned char *p = data;
	if (len > ((size_t)-1) / 2 || buf_reserve(out, len * 2) < 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		out->data[out->len++] = hexdigits[p[i] >> 4];
		out->data[out->len++] = hexdigits[p[i] & 15];
	}
	out->data[out->len] = '\0';
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int hex_decode(const char *hex, size_t hexlen, struct buf *out)
{
	/* All or nothing: out is untouched (and terminated) on failure. */
	if (hexlen % 2 || buf_reserve(out, hexlen / 2) < 0)
		return -1;
	for (size_t i = 0; i < hexlen; i++)
		if (hexval(hex[i]) < 0)
			return -1;
	for (size_t i = 0; i < hexlen; i += 2)
		out->data[out->len++] = (char)(hexval(hex[i]) << 4 | hexval(hex[i + 1]));
	out->data[out->len] = '\0';
	return 0;
}

/* ------------------------------------------------------------ encoding */

static void put_u32(struct buf *b, uint32_t v)
{
	unsigned char x[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
			      (unsigned char)(v >> 8), (unsigned char)v};
	buf_add(b, x, 4);
}

static int put_str(struct buf *b, const char *s)
{
	if (!s)
		return -1;
	size_t n = strlen(s);
	if (n > UINT32_MAX)
		return -1;
	put_u32(b, (uint32_t)n);
	buf_add(b, s, n);
	return 0;
}

static int encode_exec(const struct payload *p, struct buf *b)
{
	if (put_str(b, p->work_dir) < 0 || put_str(b, p->scope ? p->scope : "") < 0 ||
	    p->argc < 1 || !p->argv)
		return -1;
	put_u32(b, (uint32_t)p->nenv);
	for (size_t i = 0; i < p->nenv; i++)
		if (put_str(b, p->env_names[i]) < 0 ||
		    put_str(b, p->env_values[i]) < 0)
			return -1;
	put_u32(b, (uint32_t)p->argc);
	for (size_t i = 0; i < p->argc; i++)
		if (put_str(b, p->argv[i]) < 0)
			return -1;
	put_u32(b, p->supervisor_pid);
	put_u32(b, (uint32_t)(p->supervisor_start >> 32));
	put_u32(b, (uint32_t)p->supervisor_start);
	put_u32(b, p->grace_seconds);
	put_u32(b, p->exec_flags);
	if (put_str(b, p->person ? p->person : "") < 0)
		return -1;
	put_u32(b, (uint32_t)p->ndeny);
	for (size_t i = 0; i < p->ndeny; i++)
		if (put_str(b, p->deny[i]) < 0)
			return -1;
	put_u32(b, p->lifetime);
	if (put_str(b, p->root ? p->root : "") < 0 || put_str(b, p->run_id ? p->run_id : "") < 0)
		return -1;
	put_u32(b, p->audit_facility);
	return 0;
}

static int encode_check(const struct payload *p, struct buf *b)
{
	if (put_str(b, p->nonce) < 0 || put_str(b, p->sudo_path) < 0)
		return -1;
	put_u32(b, p->scan_cap);
	put_u32(b, p->scan_seconds);
	put_u32(b, (uint32_t)p->ndirs);
	for (size_t i = 0; i < p->ndirs; i++) {
		const struct payload_dir *d = &p->dirs[i];
		if (put_str(b, d->work_dir) < 0 || put_str(b, d->scope ? d->scope : "") < 0)
			return -1;
		put_u32(b, (uint32_t)d->nprune);
		for (size_t j = 0; j < d->nprune; j++)
			if (put_str(b, d->prune[j]) < 0)
				return -1;
	}
	put_u32(b, p->check_flags);
	put_u32(b, (uint32_t)p->nprobes);
	for (size_t i = 0; i < p->nprobes; i++)
		if (put_str(b, p->probes[i]) < 0)
			return -1;
	put_u32(b, (uint32_t)p->nanchors);
	for (size_t i = 0; i < p->nanchors; i++)
		if (put_str(b, p->anchors[i]) < 0)
			return -1;
	return 0;
}

static int encode_session(const struct payload *p, struct buf *b)
{
	if (put_str(b, p->user) < 0 || put_str(b, p->service) < 0 ||
	    put_str(b, p->ruser) < 0 || put_str(b, p->tty ? p->tty : "") < 0)
		return -1;
	put_u32(b, p->mode);
	if (put_str(b, p->helper) < 0 || put_str(b, p->inner) < 0)
		return -1;
	put_u32(b, p->lifetime);
	return 0;
}

int payload_encode(const struct payload *p, struct buf *out)
{
	struct buf raw = BUF_INIT;
	int r = -1;
	buf_add(&raw, "RUAS", 4);
	buf_addc(&raw, PAYLOAD_VERSION);
	buf_addc(&raw, (char)p->kind);
	if (p->kind == PAYLOAD_EXEC)
		r = encode_exec(p, &raw);
	else if (p->kind == PAYLOAD_CHECK)
		r = encode_check(p, &raw);
	else if (p->kind == PAYLOAD_SESSION)
		r = encode_session(p, &raw);
	if (r == 0 && !raw.oom)
		r = hex_encode(out, raw.data, raw.len);
	else
		r = -1;
	buf_free(&raw);
	return r;
}

/* ------------------------------------------------------------ decoding */

struct reader {
	const unsigned char *p;
	size_t left;
	const char *why;
};

static int get_u32(struct reader *r, uint32_t *v)
{
	if (r->left < 4) {
		r->why = "payload truncated";
		return -1;
	}
	*v = (uint32_t)r->p[0] << 24 | (uint32_t)r->p[1] << 16 |
	     (uint32_t)r->p[2] << 8 | (uint32_t)r->p[3];
	r->p += 4;
	r->left -= 4;
	return 0;
}

/* The lifetime mode, one of enum payload_lifetime. */
static int get_lifetime(struct reader *r, unsigned int *out)
{
	uint32_t v;
	if (get_u32(r, &v) < 0)
		return -1;
	if (v > LIFETIME_AUTO) {
		r->why = "payload lifetime mode unknown";
		return -1;
	}
	*out = v;
	return 0;
}

/* A count of items that each take at least `min` bytes must fit what is left. */
static int get_count(struct reader *r, size_t min, size_t *n)
{
	uint32_t v;
	if (get_u32(r, &v) < 0)
		return -1;
	if (min && v > r->left / min) {
		r->why = "payload count exceeds its data";
		return -1;
	}
	*n = v;
	return 0;
}

static int get_str(struct reader *r, char **out)
{
	uint32_t n;
	if (get_u32(r, &n) < 0)
		return -1;
	if (n > r->left) {
		r->why = "payload string exceeds its data";
		return -1;
	}
	if (memchr(r->p, '\0', n)) {
		r->why = "payload string contains a NUL byte";
		return -1;
	}
	char *s = malloc((size_t)n + 1);
	if (!s) {
		r->why = "out of memory";
		return -1;
	}
	memcpy(s, r->p, n);
	s[n] = '\0';
	r->p += n;
	r->left -= n;
	*out = s;
	return 0;
}

/* A NULL-terminated vector of n strings. */
static int get_strv(struct reader *r, size_t n, char ***out)
{
	char **v = calloc(n + 1, sizeof *v);
	if (!v) {
		r->why = "out of memory";
		return -1;
	}
	*out = v;
	for (size_t i = 0; i < n; i++)
		if (get_str(r, &v[i]) < 0)
			return -1;
	return 0;
}

static int decode_exec(struct reader *r, struct payload *p)
{
	if (get_str(r, &p->work_dir) < 0 || get_str(r, &p->scope) < 0 ||
	    get_count(r, 8, &p->nenv) < 0)
		return -1;
	p->env_names = calloc(p->nenv + 1, sizeof(char *));
	p->env_values = calloc(p->nenv + 1, sizeof(char *));
	if (!p->env_names || !p->env_values) {
		r->why = "out of memory";
		return -1;
	}
	for (size_t i = 0; i < p->nenv; i++)
		if (get_str(r, &p->env_names[i]) < 0 ||
		    get_str(r, &p->env_values[i]) < 0)
			return -1;
	if (get_count(r, 4, &p->argc) < 0 || get_strv(r, p->argc, &p->argv) < 0)
		return -1;
	if (p->argc < 1 || p->argv[0][0] == '\0') {
		r->why = "payload has an empty command";
		return -1;
	}
	uint32_t pid, hi, lo, grace;
	if (get_u32(r, &pid) < 0 || get_u32(r, &hi) < 0 || get_u32(r, &lo) < 0 ||
	    get_u32(r, &grace) < 0)
		return -1;
	p->supervisor_pid = pid;
	p->supervisor_start = (unsigned long long)hi << 32 | lo;
	p->grace_seconds = grace;
	uint32_t flags;
	if (get_u32(r, &flags) < 0 || get_str(r, &p->person) < 0 ||
	    get_count(r, 4, &p->ndeny) < 0 || get_strv(r, p->ndeny, &p->deny) < 0 ||
	    get_lifetime(r, &p->lifetime) < 0 || get_str(r, &p->root) < 0 ||
	    get_str(r, &p->run_id) < 0 || get_u32(r, &p->audit_facility) < 0)
		return -1;
	p->exec_flags = flags;
	if (!payload_run_id_ok(p->run_id) || !payload_facility_ok(p->audit_facility)) {
		r->why = "payload run id or audit facility is not one the library makes";
		return -1;
	}
	return 0;
}

static int decode_check(struct reader *r, struct payload *p)
{
	uint32_t cap, secs;
	if (get_str(r, &p->nonce) < 0 || get_str(r, &p->sudo_path) < 0 ||
	    get_u32(r, &cap) < 0 || get_u32(r, &secs) < 0 ||
	    get_count(r, 8, &p->ndirs) < 0)
		return -1;
	p->scan_cap = cap;
	p->scan_seconds = secs;
	p->dirs = calloc(p->ndirs + 1, sizeof *p->dirs);
	if (!p->dirs) {
		r->why = "out of memory";
		return -1;
	}
	for (size_t i = 0; i < p->ndirs; i++) {
		struct payload_dir *d = &p->dirs[i];
		if (get_str(r, &d->work_dir) < 0 || get_str(r, &d->scope) < 0 ||
		    get_count(r, 4, &d->nprune) < 0 ||
		    get_strv(r, d->nprune, &d->prune) < 0)
			return -1;
	}
	uint32_t flags;
	if (get_u32(r, &flags) < 0 || get_count(r, 4, &p->nprobes) < 0 ||
	    get_strv(r, p->nprobes, &p->probes) < 0 || get_count(r, 4, &p->nanchors) < 0 ||
	    get_strv(r, p->nanchors, &p->anchors) < 0)
		return -1;
	p->check_flags = flags;
	return 0;
}

int payload_facility_ok(unsigned int f)
{
	/* 0, or one that audit_facility can name, plus 1 (config/audit_keys.c). */
	static const int named[] = {LOG_AUTHPRIV, LOG_AUTH,   LOG_DAEMON, LOG_USER,
				    LOG_LOCAL0,   LOG_LOCAL1, LOG_LOCAL2, LOG_LOCAL3,
				    LOG_LOCAL4,   LOG_LOCAL5, LOG_LOCAL6, LOG_LOCAL7};
	if (f == 0)
		return 1;
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
		if (f == (unsigned int)(named[i] >> 3) + 1)
			return 1;
	return 0;
}

int payload_run_id_ok(const char *id)
{
	size_t n = strlen(id);
	if (n != 0 && n != 32)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
			return 0;
	return 1;
}

int payload_tty_ok(const char *t)
{
	if (!*t)
		return 1;
	size_t n = strlen(t);
	if (strncmp(t, "/dev/", 5) != 0 || strstr(t, "/../") || n > 255 ||
	    (n >= 3 && strcmp(t + n - 3, "/..") == 0))
		return 0;
	for (; *t; t++)
		if ((unsigned char)*t < 0x21 || (unsigned char)*t > 0x7e)
			return 0;
	return 1;
}

static int decode_session(struct reader *r, struct payload *p)
{
	uint32_t mode;
	if (get_str(r, &p->user) < 0 || get_str(r, &p->service) < 0 ||
	    get_str(r, &p->ruser) < 0 || get_str(r, &p->tty) < 0 || get_u32(r, &mode) < 0 ||
	    get_str(r, &p->helper) < 0 || get_str(r, &p->inner) < 0 ||
	    get_lifetime(r, &p->lifetime) < 0)
		return -1;
	if (mode != SESSION_EXEC && mode != SESSION_CHECK) {
		r->why = "payload session mode unknown";
		return -1;
	}
	if (!payload_tty_ok(p->tty)) {
		r->why = "payload session tty is not \"\" or a /dev/ path of printable bytes";
		return -1;
	}
	p->mode = mode;
	return 0;
}

int payload_decode(const char *hex, struct payload *out, const char **why)
{
	struct buf raw = BUF_INIT;
	struct reader r = {NULL, 0, NULL};
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (hex_decode(hex, strlen(hex), &raw) < 0) {
		r.why = raw.oom ? "out of memory" : "payload is not lower-case hex";
		goto done;
	}
	r.p = (const unsigned char *)raw.data;
	r.left = raw.len;
	if (r.left < 6 || memcmp(r.p, "RUAS", 4) != 0) {
		r.why = "payload has no RUAS header";
		goto done;
	}
	if (r.p[4] != PAYLOAD_VERSION) {
		r.why = "payload version mismatch (helper and library differ)";
		goto done;
	}
	out->kind = r.p[5];
	r.p += 6;
	r.left -= 6;
	if (out->kind == PAYLOAD_EXEC)
		rc = decode_exec(&r, out);
	else if (out->kind == PAYLOAD_CHECK)
		rc = decode_check(&r, out);
	else if (out->kind == PAYLOAD_SESSION)
		rc = decode_session(&r, out);
	else
		r.why = "payload kind unknown";
	if (rc == 0 && r.left != 0) {
		r.why = "payload has trailing bytes";
		rc = -1;
	}
done:
	buf_free(&raw);
	if (rc < 0) {
		payload_free(out);
		if (why)
			*why = r.why ? r.why : "payload invalid";
	}
	return rc;
}

/* n entries, which need not be NULL-terminated yet (a decode that stopped halfway). */
static void free_counted(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void payload_free(struct payload *p)
{
	free(p->work_dir);
	free(p->scope);
	free(p->root);
	free(p->run_id);
	free_counted(p->env_names, p->nenv);
	free_counted(p->env_values, p->nenv);
	free_counted(p->argv, p->argc);
	free(p->nonce);
	free(p->sudo_path);
	free(p->person);
	free_counted(p->deny, p->ndeny);
	free_counted(p->probes, p->nprobes);
	free_counted(p->anchors, p->nanchors);
	if (p->dirs) {
		for (size_t i = 0; i < p->ndirs; i++) {
			free(p->dirs[i].work_dir);
			free(p->dirs[i].scope);
			free_counted(p->dirs[i].prune, p->dirs[i].nprune);
		}
		free(p->dirs);
	}
	free(p->user);
	free(p->service);
	free(p->ruser);
	free(p->tty);
	free(p->helper);
	free(p->inner);
	memset(p, 0, sizeof *p);
}
