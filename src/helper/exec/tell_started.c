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

int tell_started_ok(int chan, int lifetime)
{
	struct msg_started m = {1, 0, 0, lifetime, ""};
	return tell(chan, &m);
}

int tell_started_failed(int chan, int stage, int errnum, const char *reason, int lifetime)
{
	char fit[STARTED_REASON_MAX + 1];
	started_reason_fit(fit, sizeof fit, reason);
	struct msg_started m = {0, stage, errnum < 0 || errnum > 4095 ? 0 : errnum, lifetime, fit};
	return tell(chan, &m);
}
