/*
 * fuzz_wire - the library's parser of ruas-exec's check report (src/common/proto/wire.h)
 * on arbitrary bytes, framed by the markers of a fixed nonce. Properties:
 * never crash or leak; what it accepts keeps the trust-anchor invariants
 * (at most ANCHOR_REPORT_CAP records, a total no smaller than the list,
 * absolute paths, a known verdict).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NONCE "00112233445566778899aabbccddeeff"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf b = BUF_INIT;
	struct helper_report r;
	buf_adds(&b, WIRE_BEGIN " " NONCE "\n");
	buf_add(&b, data, size);
	buf_adds(&b, "\n" WIRE_END " " NONCE "\n");
	if (b.oom) {
		buf_free(&b);
		return 0;
	}
	/* Two work_dirs, so that dir records can be reached too. */
	if (helper_report_parse(b.data, b.len, NONCE, 2, &r) == 0) {
		if (!r.complete || !r.esc_seen || !r.esctty_seen || !r.anchors_seen ||
		    r.nanchors > ANCHOR_REPORT_CAP || r.anchors_total < r.nanchors ||
		    (r.anchors_total > r.nanchors && r.nanchors != ANCHOR_REPORT_CAP))
			__builtin_trap();
		for (size_t i = 0; i < r.nanchors; i++)
			if (r.anchors[i].path[0] != '/' || r.anchors[i].anchor[0] != '/' ||
			    !strchr("owr", r.anchors[i].how) || !r.anchors[i].how ||
			    r.anchors[i].rel < AREL_SELF || r.anchors[i].rel > AREL_LINK)
				__builtin_trap();
	}
	helper_report_free(&r);
	buf_free(&b);
	return 0;
}
