/* SPDX-License-Identifier: ISC */
/* control.c - the run's control messages; see control.h. */
#include "control.h"

#include <limits.h>
#include <stdint.h>

#include "codec.h"

static int signal_ok(uint32_t sig)
{
	return sig >= 1 && sig <= MSG_SIGNAL_MAX;
}

/* A body that is exactly one signal number. */
static int sig_body_decode(const void *body, size_t len, int *sig)
{
	struct dec d;
	uint32_t v;
	dec_init(&d, body, len);
	if (dec_u32(&d, &v) < 0 || dec_done(&d) < 0 || !signal_ok(v))
		return -1;
	*sig = (int)v;
	return 0;
}

int msg_signal_encode(struct buf *out, int sig)
{
	if (sig < 1 || !signal_ok((uint32_t)sig))
		return -1;
	enc_u32(out, (uint32_t)sig);
	return out->oom ? -1 : 0;
}

int msg_signal_decode(const void *body, size_t len, int *sig)
{
	return sig_body_decode(body, len, sig);
}

int msg_terminate_encode(struct buf *out)
{
	(void)out;
	return 0;
}

int msg_terminate_decode(const void *body, size_t len)
{
	(void)body;
	return len == 0 ? 0 : -1;
}

int msg_kill_encode(struct buf *out, int library_records_end)
{
	enc_u8(out, library_records_end ? 1 : 0);
	return out->oom ? -1 : 0;
}

int msg_kill_decode(const void *body, size_t len, int *library_records_end)
{
	struct dec d;
	unsigned int v;
	dec_init(&d, body, len);
	if (dec_u8(&d, &v) < 0 || dec_done(&d) < 0 || v > 1)
		return -1;
	*library_records_end = (int)v;
	return 0;
}

static int exit_ok(const struct msg_exit *e)
{
	if (e->survivors < MSG_EXIT_SURVIVORS_UNKNOWN ||
	    (e->survivors >= 0 && (unsigned long)e->survivors >= UINT32_MAX) ||
	    (e->started != 0 && e->started != 1))
		return 0;
	switch (e->how) {
	case EXIT_HOW_EXITED:
		return e->value <= 255;
	case EXIT_HOW_SIGNALED:
		/* The agent, or (not started) the run before it: its login shell, ended by a signal. */
		return signal_ok(e->value);
	case EXIT_HOW_HELPER:
		/* The helper ended the run, before the agent's program ran. */
		return e->value <= 255 && !e->started;
	default:
		return 0;
	}
}

int msg_exit_encode(struct buf *out, const struct msg_exit *e)
{
	if (!exit_ok(e))
		return -1;
	enc_u8(out, (unsigned int)e->how);
	enc_u32(out, e->value);
	enc_u32(out, e->survivors < 0 ? UINT32_MAX : (uint32_t)e->survivors);
	enc_u8(out, (unsigned int)e->started);
	return out->oom ? -1 : 0;
}

int msg_exit_decode(const void *body, size_t len, struct msg_exit *e)
{
	struct dec d;
	unsigned int how, started;
	uint32_t value, survivors;
	dec_init(&d, body, len);
	if (dec_u8(&d, &how) < 0 || dec_u32(&d, &value) < 0 || dec_u32(&d, &survivors) < 0 ||
	    dec_u8(&d, &started) < 0 || dec_done(&d) < 0)
		return -1;
#if LONG_MAX < UINT32_MAX
	if (survivors != UINT32_MAX && survivors > (uint32_t)LONG_MAX)
		return -1;
#endif
	struct msg_exit x = {(int)how, value,
			     survivors == UINT32_MAX ? MSG_EXIT_SURVIVORS_UNKNOWN : (long)survivors,
			     (int)started};
	if (!exit_ok(&x))
		return -1;
	*e = x;
	return 0;
}

int msg_stopped_encode(struct buf *out, int sig)
{
	return msg_signal_encode(out, sig);
}

int msg_stopped_decode(const void *body, size_t len, int *sig)
{
	return sig_body_decode(body, len, sig);
}

int msg_continued_encode(struct buf *out)
{
	(void)out;
	return 0;
}

int msg_continued_decode(const void *body, size_t len)
{
	(void)body;
	return len == 0 ? 0 : -1;
}
