/* SPDX-License-Identifier: ISC */
/*
 * ruas-credential NAME - print the run's credential NAME (docs/credentials.md).
 *
 * Runs as the target, inside a run of ruas: anything of the agent's may
 * call it (Claude Code's apiKeyHelper, a tool's *_command setting). It
 * asks the socket that RUAS_CREDENTIALS names and prints the value and a
 * newline on stdout, or the refusal on stderr. It holds no secret and no
 * privilege: the library decides, by who the kernel says is asking.
 *
 * Exit status: 0 the value was printed; 1 refused, or no answer (the
 * message says which); 2 usage.
 */
#include <stdio.h>
#include <string.h>

#include "cred_wire.h"
#include "ask.h"

int main(int argc, char **argv)
{
	static char value[ASK_VALUE_SIZE];
	if (argc != 2 || argv[1][0] == '-') {
		fputs("usage: ruas-credential NAME\n"
		      "Prints the credential NAME of this ruas run (RUAS_CREDENTIALS names where to "
		      "ask).\n",
		      stderr);
		return 2;
	}
	if (!ask_name_ok(argv[1])) {
		fprintf(stderr, "ruas-credential: \"%s\" is not a credential name "
				"(^[a-z0-9][a-z0-9_.-]*$, at most %d bytes)\n",
			argv[1], CRED_WIRE_NAME_MAX);
		return 2;
	}
	if (ask_credential("ruas-credential", argv[1], value, sizeof value) < 0)
		return 1;
	int r = printf("%s\n", value) < 0 || fflush(stdout) != 0;
	explicit_bzero(value, sizeof value);
	return r ? 1 : 0;
}
