/* SPDX-License-Identifier: ISC */
/* count.c - the count of audit records no sink took; see count.h. */
#include "audit/count.h"

#include <stdlib.h>

struct audit_count *audit_count_new(void)
{
	struct audit_count *c = calloc(1, sizeof *c);
	if (c)
		c->refs = 1;
	return c;
}

struct audit_count *audit_count_ref(struct audit_count *c)
{
	if (c)
		__atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
	return c;
}

void audit_count_unref(struct audit_count *c)
{
	if (c && __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) == 0)
		free(c);
}

unsigned long audit_count_get(const struct audit_count *c)
{
	return c ? __atomic_load_n(&c->n, __ATOMIC_RELAXED) : 0;
}
