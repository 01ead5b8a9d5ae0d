/* SPDX-License-Identifier: ISC */
/* tell_started.c - see tell_started.h. */
#include "tell_started.h"

#include "buf.h"
#include "channel.h"
#include "started.h"

static int tell(int chan, const struct msg_started *m)
{
	struct buf b = BUF_INIT;
	int r = chan >= 0 && msg_started_encode(&b, m) == 0
			? channel_send_control(chan, CHANNEL_STARTED, &b)
			: -1;
	buf_free(&b);
	return r;
}

int tell_started_ok(int chan, int lifetime, pid_t agent, int pid_level)
{
	int known = agent > 0 && pid_level >= 0 && pid_level <= 32;
	struct msg_started m = {1, 0, 0, lifetime, known ? (unsigned int)agent : 0,
				known ? (unsigned int)pid_level : 0, ""};
	return tell(chan, &m);
}

int tell_started_failed(int chan, int stage, int errnum, const char *reason, int lifetime)
{
	char fit[STARTED_REASON_MAX + 1];
	started_reason_fit(fit, sizeof fit, reason);
	struct msg_started m = {0, stage, errnum < 0 || errnum > 4095 ? 0 : errnum, lifetime, 0, 0, fit};
	return tell(chan, &m);
}
