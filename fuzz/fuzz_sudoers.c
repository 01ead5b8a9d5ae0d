/* SPDX-License-Identifier: ISC */
/*
 * fuzz_sudoers - user-name validation together with fragment generation.
 * Property: for every accepted input, the fragment grants the supervisor
 * exactly the named runas users, one rule each, and nothing else, and
 * lets each of them list its own rules (listpw=never), where each has a
 * rule as itself that grants nothing ("T ALL=(T) !ALL"). Accepted
 * fragments are also written to $FUZZ_SUDOERS_SAMPLES (when set) for
 * fuzz/run.sh to check with visudo.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruas.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long samples;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Input: supervisor\ntarget\ntarget... (NUL ends a name early). */
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	const char *names[9] = {0};
	size_t n = 0;
	char *save = NULL;
	for (char *t = strtok_r(text, "\n", &save); t && n < 8; t = strtok_r(NULL, "\n", &save))
		names[n++] = t;
	if (n < 2) {
		free(text);
		return 0;
	}
	char *frag = NULL;
	ruas_error *err = NULL;
	int r = ruas_sudoers_fragment(&frag, names[0], names + 1, &err);
	if (r == 0) {
		/*
		 * Every non-comment line is "SUP ALL=(T) NOPASSWD: ALL" for a named
		 * T, each followed by "Defaults:T listpw=never" and "T ALL=(T) !ALL"
		 * for the same T.
		 */
		size_t rules = 0;
		char *lsave = NULL;
		const char *prev_target = NULL, *listed = NULL;
		for (char *line = strtok_r(frag, "\n", &lsave); line; line = strtok_r(NULL, "\n", &lsave)) {
			if (line[0] == '#')
				continue;
			char want[128];
			if (prev_target) {
				/* The line after a rule lets its target list its own rules. */
				snprintf(want, sizeof want, "Defaults:%s listpw=never", prev_target);
				if (strcmp(line, want) != 0)
					__builtin_trap();
				listed = prev_target;
				prev_target = NULL;
				continue;
			}
			if (listed) {
				/* Then the target's rule as itself, which grants nothing. */
				snprintf(want, sizeof want, "%s ALL=(%s) !ALL", listed, listed);
				if (strcmp(line, want) != 0)
					__builtin_trap();
				listed = NULL;
				continue;
			}
			for (size_t i = 1; i < n && !prev_target; i++) {
				snprintf(want, sizeof want, "%s ALL=(%s) NOPASSWD: ALL", names[0], names[i]);
				if (strcmp(line, want) == 0)
					prev_target = names[i];
			}
			if (!prev_target)
				__builtin_trap();
			rules++;
		}
		if (prev_target || listed)
			__builtin_trap();
		size_t distinct = 0;
		for (size_t i = 1; i < n; i++) {
			int dup = 0;
			for (size_t k = 1; k < i; k++)
				dup |= strcmp(names[k], names[i]) == 0;
			distinct += !dup;
		}
		if (rules != distinct)
			__builtin_trap();
		const char *dir = getenv("FUZZ_SUDOERS_SAMPLES");
		if (dir && samples < 200) {
			char path[4096];
			ruas_free(frag);
			ruas_sudoers_fragment(&frag, names[0], names + 1, NULL);
			snprintf(path, sizeof path, "%s/sample%lu", dir, samples++);
			FILE *f = fopen(path, "w");
			if (f) {
				fputs(frag, f);
				fclose(f);
			}
		}
		ruas_free(frag);
	} else if (r != RUAS_ERR_INVALID || !err) {
		__builtin_trap();
	}
	ruas_error_free(err);
	free(text);
	return 0;
}
