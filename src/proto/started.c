/* started.c - STARTED; see started.h. */
#include "started.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "codec.h"
#include "payload.h"

/* ok, stage, errno, lifetime, the reason's length and the reason: a control message (channel.h). */
_Static_assert(1 + 1 + 4 + 1 + 4 + STARTED_REASON_MAX <= CHANNEL_CONTROL_MAX,
	       "a STARTED is sent without blocking");

static int reason_ok(const char *r)
{
	size_t n = 0;
	for (; r[n]; n++)
		if ((unsigned char)r[n] < 0x20 || (unsigned char)r[n] == 0x7f)
			return 0;
	return n <= STARTED_REASON_MAX;
}

static int started_ok(const struct msg_started *m)
{
	if (m->ok != 0 && m->ok != 1)
		return 0;
	if (m->lifetime != LIFETIME_PIDNS && m->lifetime != LIFETIME_SUBREAPER)
		return 0;
	if (m->ok)
		return m->stage == 0 && m->errnum == 0 && m->reason && !*m->reason;
	return m->stage >= 1 && m->stage <= STARTED_STAGE_MAX && m->errnum >= 0 &&
	       m->errnum <= 4095 && m->reason && reason_ok(m->reason);
}

int msg_started_encode(struct buf *out, const struct msg_started *m)
{
	if (!started_ok(m))
		return -1;
	enc_u8(out, (unsigned int)m->ok);
	enc_u8(out, (unsigned int)m->stage);
	enc_u32(out, (uint32_t)m->errnum);
	enc_u8(out, (unsigned int)m->lifetime);
	if (enc_str(out, m->reason) < 0)
		return -1;
	return out->oom ? -1 : 0;
}

int msg_started_decode(const void *body, size_t len, struct msg_started *m)
{
	struct dec d;
	unsigned int ok, stage, lifetime;
	uint32_t errnum;
	char *reason = NULL;
	dec_init(&d, body, len);
	if (dec_u8(&d, &ok) < 0 || dec_u8(&d, &stage) < 0 || dec_u32(&d, &errnum) < 0 ||
	    dec_u8(&d, &lifetime) < 0 || dec_str(&d, &reason) < 0 || dec_done(&d) < 0 ||
	    errnum > 4095) {
		free(reason);
		return -1;
	}
	struct msg_started x = {(int)ok, (int)stage, (int)errnum, (int)lifetime, reason};
	if (!started_ok(&x)) {
		free(reason);
		return -1;
	}
	*m = x;
	return 0;
}

void started_reason_fit(char *out, size_t size, const char *reason)
{
	size_t n = 0;
	for (; reason && reason[n] && n + 1 < size && n < STARTED_REASON_MAX; n++) {
		char c = reason[n];
		if ((unsigned char)c < 0x20 || c == 0x7f)
			c = ' ';
		out[n] = c;
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}
