/* wire.c - what both halves of the check report share: its words and the scan items' lifetime. */
#include <stdlib.h>
#include <string.h>

#include "wire.h"

static const char *const rel_words[] = {"self", "parent", "inside", "link"};
static const char *const probe_words[] = {"readable", "denied", "missing"};

const char *wire_rel_word(int rel)
{
	return rel >= AREL_SELF && rel <= AREL_LINK ? rel_words[rel - AREL_SELF] : "?";
}

int wire_rel_of(const char *word)
{
	for (int i = AREL_SELF; i <= AREL_LINK; i++)
		if (strcmp(word, rel_words[i - AREL_SELF]) == 0)
			return i;
	return 0;
}

const char *wire_probe_word(int verdict)
{
	return verdict >= PROBE_READABLE && verdict <= PROBE_MISSING
		       ? probe_words[verdict - PROBE_READABLE]
		       : "?";
}

int wire_probe_of(const char *word)
{
	for (int i = PROBE_READABLE; i <= PROBE_MISSING; i++)
		if (strcmp(word, probe_words[i - PROBE_READABLE]) == 0)
			return i;
	return PROBE_UNKNOWN;
}

void scan_items_free(struct scan_item *items, size_t n)
{
	for (size_t i = 0; items && i < n; i++) {
		free(items[i].path);
		free(items[i].owner);
	}
	free(items);
}
