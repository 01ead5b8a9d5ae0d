/* SPDX-License-Identifier: ISC */
/* session.c - SESSION, ruas-session's own message; see session.h. */
#include "session.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "payload.h"

#define MAGIC "RUAS"

int session_tty_ok(const char *t)
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

int session_encode(const struct session *s, struct buf *out)
{
	size_t start = out->len;
	buf_add(out, MAGIC, 4);
	enc_u8(out, PAYLOAD_VERSION);
	int r = enc_str(out, s->user) < 0 || enc_str(out, s->service) < 0 ||
			enc_str(out, s->ruser) < 0 || enc_str(out, s->tty ? s->tty : "") < 0
		? -1
		: 0;
	if (r == 0) {
		enc_u32(out, s->mode);
		r = enc_str(out, s->helper);
		enc_u32(out, s->lifetime);
		enc_u32(out, s->grace_seconds);
		if (r == 0)
			r = enc_str(out, s->person ? s->person : "");
		enc_u32(out, s->keep_cgroup);
	}
	if (r < 0 || out->oom) {
		if (out->data && !out->oom) {
			out->len = start;
			out->data[start] = '\0';
		}
		return -1;
	}
	return 0;
}

int session_decode(const void *data, size_t len, struct session *out, const char **why)
{
	struct dec d;
	unsigned int version;
	uint32_t mode, lifetime, grace, keep_cgroup;
	int rc = -1;
	memset(out, 0, sizeof *out);
	dec_init(&d, data, len);
	if (!data || len < 5 || memcmp(data, MAGIC, 4) != 0) {
		dec_fail(&d, "session has no RUAS header");
		goto done;
	}
	d.p += 4;
	d.left -= 4;
	if (dec_u8(&d, &version) < 0)
		goto done;
	if (version != PAYLOAD_VERSION) {
		dec_fail(&d, "payload version mismatch (helper and library differ)");
		goto done;
	}
	if (dec_str(&d, &out->user) < 0 || dec_str(&d, &out->service) < 0 ||
	    dec_str(&d, &out->ruser) < 0 || dec_str(&d, &out->tty) < 0 || dec_u32(&d, &mode) < 0 ||
	    dec_str(&d, &out->helper) < 0 || dec_u32(&d, &lifetime) < 0 || dec_u32(&d, &grace) < 0 ||
	    dec_str(&d, &out->person) < 0 || dec_u32(&d, &keep_cgroup) < 0 || dec_done(&d) < 0)
		goto done;
	if (keep_cgroup > 1) {
		dec_fail(&d, "session keep_cgroup is neither 0 nor 1");
		goto done;
	}
	out->keep_cgroup = keep_cgroup;
	if (mode != SESSION_EXEC && mode != SESSION_CHECK) {
		dec_fail(&d, "session mode unknown");
		goto done;
	}
	if (lifetime > LIFETIME_AUTO) {
		dec_fail(&d, "session lifetime mode unknown");
		goto done;
	}
	if (!session_tty_ok(out->tty)) {
		dec_fail(&d, "session tty is not \"\" or a /dev/ path of printable bytes");
		goto done;
	}
	if (out->helper[0] != '/') {
		dec_fail(&d, "session helper path is not absolute");
		goto done;
	}
	out->mode = mode;
	out->lifetime = lifetime;
	out->grace_seconds = grace;
	rc = 0;
done:
	if (rc < 0) {
		session_free(out);
		if (why)
			*why = d.why ? d.why : "session invalid";
	}
	return rc;
}

void session_free(struct session *s)
{
	free(s->user);
	free(s->service);
	free(s->ruser);
	free(s->tty);
	free(s->helper);
	free(s->person);
	memset(s, 0, sizeof *s);
}
