/* SPDX-License-Identifier: ISC */
/*
 * fuzz_payload - PAYLOAD's decoder (src/proto/payload.h) on arbitrary
 * bytes. Properties: it never crashes, leaks or reads out of bounds; what
 * it accepts keeps the header's promises (a user name, never empty nor
 * with a '/'; argv NULL-terminated and its first word not empty, an
 * absolute helper, known flags, lifetime, run id
 * and facility); it is canonical: payload_encode() of the value writes the
 * very same bytes, and those decode again to the same value. The same
 * bytes as a HELLO body (payload.h): accepted only as "RUAS" and one
 * version byte, which it gives back; of this version, what
 * payload_hello_encode() writes.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "payload.h"

static void same_exec(const struct payload *p, const struct payload *q)
{
	same_str(p->helper, q->helper);
	same_str(p->shell, q->shell);
	same_str(p->home, q->home);
	same_str(p->work_dir, q->work_dir);
	same_str(p->scope, q->scope);
	CHECK(p->nenv == q->nenv);
	same_strv(p->env_names, q->env_names, p->nenv, 1);
	same_strv(p->env_values, q->env_values, p->nenv, 1);
	CHECK(p->argc == q->argc);
	same_strv(p->argv, q->argv, p->argc, 1);
	CHECK(p->supervisor_pid == q->supervisor_pid && p->supervisor_start == q->supervisor_start);
	CHECK(p->grace_seconds == q->grace_seconds && p->exec_flags == q->exec_flags);
	same_str(p->person, q->person);
	CHECK(p->ndeny == q->ndeny);
	same_strv(p->deny, q->deny, p->ndeny, 1);
	CHECK(p->lifetime == q->lifetime);
	same_str(p->root, q->root);
	same_str(p->run_id, q->run_id);
	CHECK(p->audit_facility == q->audit_facility);
}

static void same_check(const struct payload *p, const struct payload *q)
{
	same_str(p->sudo_path, q->sudo_path);
	CHECK(p->scan_cap == q->scan_cap && p->scan_seconds == q->scan_seconds);
	CHECK(p->ndirs == q->ndirs && !p->dirs == !q->dirs);
	for (size_t i = 0; i < p->ndirs; i++) {
		const struct payload_dir *a = &p->dirs[i], *b = &q->dirs[i];
		same_str(a->work_dir, b->work_dir);
		same_str(a->scope, b->scope);
		CHECK(a->nprune == b->nprune);
		same_strv(a->prune, b->prune, a->nprune, 1);
	}
	CHECK(p->check_flags == q->check_flags);
	CHECK(p->nprobes == q->nprobes && p->nanchors == q->nanchors);
	same_strv(p->probes, q->probes, p->nprobes, 1);
	same_strv(p->anchors, q->anchors, p->nanchors, 1);
	same_str(p->known_listing, q->known_listing);
	CHECK(p->njudged_trees == q->njudged_trees);
	same_strv(p->judged_trees, q->judged_trees, p->njudged_trees, 1);
	CHECK(p->ncommands == q->ncommands);
	same_strv(p->commands, q->commands, p->ncommands, 1);
}

/* Every field, of both kinds: a decoder leaves the other kind's zero. */
static void same_payload(const struct payload *p, const struct payload *q)
{
	CHECK(p->kind == q->kind);
	same_str(p->user, q->user);
	same_exec(p, q);
	same_check(p, q);
}

/* What payload.h promises of an accepted payload. */
static void valid(const struct payload *p)
{
	CHECK(p->kind == PAYLOAD_EXEC || p->kind == PAYLOAD_CHECK);
	CHECK(p->user && p->user[0] && !strchr(p->user, '/'));
	if (p->kind == PAYLOAD_EXEC) {
		CHECK(p->shell && p->home);
		CHECK(p->argc >= 1 && p->argv && p->argv[0][0] != '\0');
		CHECK(p->helper && p->helper[0] == '/');
		CHECK(p->work_dir && p->scope && p->person && p->root && p->run_id);
		CHECK((p->exec_flags & ~(unsigned int)EXEC_FLAGS_ALL) == 0);
		CHECK(p->lifetime <= LIFETIME_AUTO);
		CHECK(payload_run_id_ok(p->run_id) && payload_facility_ok(p->audit_facility));
	} else {
		CHECK(p->sudo_path && (p->check_flags & ~(unsigned int)CHECK_FLAGS_ALL) == 0);
		for (size_t i = 0; i < p->ndirs; i++)
			CHECK(p->dirs[i].work_dir && p->dirs[i].scope);
	}
}

static void hello(const uint8_t *data, size_t size)
{
	unsigned int v = 0;
	if (payload_hello_decode(data, size, &v) < 0)
		return;
	CHECK(size == PAYLOAD_HELLO_BODY && v == data[4]);
	if (v != PAYLOAD_VERSION)
		return;
	struct buf b = BUF_INIT;
	CHECK(payload_hello_encode(&b) == 0);
	same_bytes(&b, data, size);
	buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct payload p, q;
	const char *why = NULL;
	hello(data, size);
	if (payload_decode(data, size, &p, &why) < 0) {
		CHECK(why != NULL);
		return 0;
	}
	valid(&p);
	struct buf again = BUF_INIT;
	CHECK(payload_encode(&p, &again) == 0);
	same_bytes(&again, data, size);
	CHECK(payload_decode(again.data, again.len, &q, &why) == 0);
	same_payload(&p, &q);
	payload_free(&p);
	payload_free(&q);
	buf_free(&again);
	return 0;
}
