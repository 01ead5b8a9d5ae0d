/* SPDX-License-Identifier: ISC */
/*
 * count.h - how many audit records no sink took (ruas_config_audit_undelivered()):
 * shared by a configuration and the runs it started, which may outlive it,
 * so counted references free it. Any thread may count.
 */
#ifndef RUAS_AUDIT_COUNT_H
#define RUAS_AUDIT_COUNT_H

struct audit_count {
	unsigned long n;    /* records (__atomic) */
	unsigned long refs; /* holders (__atomic) */
};

/* One reference; NULL when out of memory. */
struct audit_count *audit_count_new(void);
/* Another reference to c (NULL: none); c. */
struct audit_count *audit_count_ref(struct audit_count *c);
/* Drops one; the last frees it. NULL: nothing. */
void audit_count_unref(struct audit_count *c);
/* The count; 0 for NULL. */
unsigned long audit_count_get(const struct audit_count *c);

#endif
