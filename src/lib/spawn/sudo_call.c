/* sudo_call.c - see sudo_call.h. */
#include "spawn/sudo_call.h"

#include <string.h>

const char *const sudo_call_envp[] = {NULL};

void sudo_call_build(struct sudo_call *c, const char *sudo, const char *user, const char *helper)
{
	sudo_call_build_via(c, sudo, NULL, user, helper);
}

void sudo_call_build_via(struct sudo_call *c, const char *sudo, const char *via, const char *user,
			 const char *helper)
{
	memset(c, 0, sizeof *c);
	const char **a = c->argv;
	if (via) {
		*a++ = sudo;
		*a++ = "-n";
		*a++ = "-u";
		*a++ = via;
		*a++ = "--";
	}
	*a++ = sudo;
	*a++ = "-n";
	*a++ = "-u";
	*a++ = user;
	*a++ = "--";
	*a++ = helper;
	*a++ = "--channel-fd";
	*a++ = "0";
	*a = NULL;
}
