/* SPDX-License-Identifier: ISC */
/*
 * fuzz_sudo_list - the reader of `sudo -l` output, and the judgement on it.
 * Properties: no crash, leak or undefined behaviour; a refusal always says
 * why; an accepted listing's rules are whole (a runas, at least one
 * command, none empty); and a passwordless rule as another user is never
 * judged harmless.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/escalation.h"
#include "check/report.h"
#include "check/sudo_list.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0'; /* a NUL inside ends the text early, as in a C string */
	struct sudo_listing l;
	const char *why = NULL;
	int passwordless_other = 0;
	if (sudo_listing_parse(text, "t", &l, &why) == 0) {
		for (size_t i = 0; i < l.nrules; i++) {
			const struct sudo_rule *r = &l.rules[i];
			if (!r->runas || !r->line || r->ncmds == 0)
				__builtin_trap();
			for (size_t k = 0; k < r->ncmds; k++) {
				if (!r->cmds[k].text[0])
					__builtin_trap();
				if (!r->self_only && !r->cmds[k].negated &&
				    (r->cmds[k].nopasswd || l.authenticate_off))
					passwordless_other = 1;
			}
		}
		sudo_listing_free(&l);
	} else if (!why) {
		__builtin_trap();
	}
	const char *names[] = {"p", NULL};
	ruas_report *rep = report_new(names, 1);
	if (rep) {
		struct esc_evidence ev = {1, 1, 0, 1, text, "", 0, 0, NULL, 0, 0, 0};
		if (escalation_report(rep, 0, "t", &ev, NULL) == 0 && passwordless_other &&
		    !ruas_report_has_fatal(rep))
			__builtin_trap();
		ruas_report_free(rep);
	}
	free(text);
	return 0;
}
