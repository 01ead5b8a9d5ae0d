/* SPDX-License-Identifier: ISC */
/*
 * fuzz_session - SESSION's decoder (src/proto/session.h) on arbitrary
 * bytes. Properties: it never crashes, leaks or reads out of bounds; what
 * it accepts has a known mode and lifetime, a tty session_tty_ok() takes
 * and an absolute helper; it is canonical: session_encode() of the value
 * writes the very same bytes, and those decode again to the same value.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_check.h"
#include "payload.h"
#include "session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session s, t;
	const char *why = NULL;
	if (session_decode(data, size, &s, &why) < 0) {
		CHECK(why != NULL);
		return 0;
	}
	CHECK(s.user && s.service && s.ruser && s.tty && s.helper);
	CHECK(s.mode == SESSION_EXEC || s.mode == SESSION_CHECK);
	CHECK(s.lifetime <= LIFETIME_AUTO);
	CHECK(session_tty_ok(s.tty) && s.helper[0] == '/');
	struct buf again = BUF_INIT;
	CHECK(session_encode(&s, &again) == 0);
	same_bytes(&again, data, size);
	CHECK(session_decode(again.data, again.len, &t, &why) == 0);
	same_str(s.user, t.user);
	same_str(s.service, t.service);
	same_str(s.ruser, t.ruser);
	same_str(s.tty, t.tty);
	same_str(s.helper, t.helper);
	CHECK(s.mode == t.mode && s.lifetime == t.lifetime && s.grace_seconds == t.grace_seconds);
	session_free(&s);
	session_free(&t);
	buf_free(&again);
	return 0;
}
