/* SPDX-License-Identifier: ISC */
/* started.c - STARTED; see started.h. */
#include "started.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "codec.h"
#include "payload.h"

/*
 * ok, stage, errno, lifetime, agent_pid, pid_level, the reason's length and
 * the reason: a control message (channel.h).
 */
_Static_assert(1 + 1 + 4 + 1 + 4 + 1 + 4 + STARTED_REASON_MAX <= CHANNEL_CONTROL_MAX,
	       "a STARTED is sent without blocking");

/*
 * The length of the character at s (1..4) when it may be shown as it is:
 * printable ASCII, or well-formed UTF-8 that is no C1 control, no
 * bidirectional override or mark (which would reorder what a terminal or
 * a log viewer shows), no line or paragraph separator and no zero-width
 * character (which would break or hide part of the line); 0 when not.
 */
static size_t shown_len(const unsigned char *s)
{
	if (s[0] < 0x80)
		return s[0] >= 0x20 && s[0] != 0x7f;
	size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (n == 0 || (s[0] >= 0xf5))
		return 0;
	unsigned long c = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	static const unsigned long min[] = {0, 0, 0x80, 0x800, 0x10000};
	if (c < min[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) || c <= 0x9f ||
	    (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e ||
	    c == 0x200f || c == 0x061c || (c >= 0x200b && c <= 0x200d) || c == 0x2028 ||
	    c == 0x2029 || c == 0x2060 || c == 0xfeff)
		return 0;
	return n;
}

static int reason_ok(const char *r)
{
	size_t n = 0;
	while (r[n]) {
		size_t k = shown_len((const unsigned char *)r + n);
		if (k == 0)
			return 0;
		n += k;
	}
	return n <= STARTED_REASON_MAX;
}

static int started_ok(const struct msg_started *m)
{
	if (m->ok != 0 && m->ok != 1)
		return 0;
	if ((m->lifetime != LIFETIME_PIDNS && m->lifetime != LIFETIME_SUBREAPER) || m->pid_level > 32 ||
	    m->agent_pid > 0x3fffffff || (!m->ok && (m->agent_pid || m->pid_level)))
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
	enc_u32(out, m->agent_pid);
	enc_u8(out, m->pid_level);
	if (enc_str(out, m->reason) < 0)
		return -1;
	return out->oom ? -1 : 0;
}

int msg_started_decode(const void *body, size_t len, struct msg_started *m)
{
	struct dec d;
	unsigned int ok, stage, lifetime, level;
	uint32_t errnum, pid;
	char *reason = NULL;
	dec_init(&d, body, len);
	if (dec_u8(&d, &ok) < 0 || dec_u8(&d, &stage) < 0 || dec_u32(&d, &errnum) < 0 ||
	    dec_u8(&d, &lifetime) < 0 || dec_u32(&d, &pid) < 0 || dec_u8(&d, &level) < 0 ||
	    dec_str(&d, &reason) < 0 || dec_done(&d) < 0 || errnum > 4095) {
		free(reason);
		return -1;
	}
	struct msg_started x = {(int)ok, (int)stage, (int)errnum, (int)lifetime, pid, level, reason};
	if (!started_ok(&x)) {
		free(reason);
		return -1;
	}
	*m = x;
	return 0;
}

void started_reason_fit(char *out, size_t size, const char *reason)
{
	size_t n = 0, i = 0;
	while (reason && reason[i] && n + 1 < size && n < STARTED_REASON_MAX) {
		size_t k = shown_len((const unsigned char *)reason + i);
		if (k == 0) {
			/* A control byte a space, anything else that may not be shown a '?'. */
			out[n++] = (unsigned char)reason[i] < 0x80 ? ' ' : '?';
			i++;
			continue;
		}
		if (n + k >= size || n + k > STARTED_REASON_MAX)
			break;
		memcpy(out + n, reason + i, k);
		n += k;
		i += k;
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}
