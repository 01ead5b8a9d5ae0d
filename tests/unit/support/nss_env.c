/* SPDX-License-Identifier: ISC */
/* nss_env.c - see nss_env.h. */
#include "config.h"

#include "nss_env.h"
#include "reexec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const candidates[] = {
#ifdef RUAS_MULTIARCH
	"/usr/lib/" RUAS_MULTIARCH "/libnss_wrapper.so",
#endif
	"/usr/lib/x86_64-linux-gnu/libnss_wrapper.so",
	"/usr/lib/aarch64-linux-gnu/libnss_wrapper.so",
	"/usr/lib/i386-linux-gnu/libnss_wrapper.so",
	"/usr/lib64/libnss_wrapper.so",
	"/usr/lib/libnss_wrapper.so",
	"/usr/local/lib/libnss_wrapper.so",
	NULL};

const char *nss_env_library(void)
{
	for (const char *const *c = candidates; *c; c++)
		if (access(*c, R_OK) == 0)
			return *c;
	return NULL;
}

static void die(const char *what)
{
	fprintf(stderr, "nss_env: %s: %s\n", what, strerror(errno));
	exit(99); /* automake: hard error */
}

static void write_all(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		die(path);
	size_t len = strlen(text), off = 0;
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die(path);
		off += (size_t)n;
	}
	if (close(fd) < 0)
		die(path);
}

static void set_or_die(const char *name, const char *value)
{
	if (setenv(name, value, 1) < 0)
		die(name);
}

void nss_env_reexec(int argc, char **argv, const char *passwd_lines,
		    const char *group_lines)
{
	(void)argc;
	if (getenv("NSS_WRAPPER_PASSWD"))
		return; /* we are the re-executed process */

	const char *lib = nss_env_library();
	if (!lib) {
		printf("SKIP: nss_wrapper (libnss-wrapper) not installed\n");
		fflush(stdout);
		exit(77);
	}

	char dir[] = "/tmp/ruas-nss.XXXXXX";
	if (!mkdtemp(dir))
		die("mkdtemp");
	char passwd[sizeof dir + 16], group[sizeof dir + 16];
	snprintf(passwd, sizeof passwd, "%s/passwd", dir);
	snprintf(group, sizeof group, "%s/group", dir);
	write_all(passwd, passwd_lines);
	write_all(group, group_lines);

	set_or_die("NSS_WRAPPER_PASSWD", passwd);
	set_or_die("NSS_WRAPPER_GROUP", group);
	const char *old_preload = getenv("LD_PRELOAD");
	char *preload = NULL, *asan = NULL;
	if (asprintf(&preload, "%s%s%s", lib, old_preload && *old_preload ? " " : "",
		     old_preload ? old_preload : "") < 0)
		die("asprintf");
	set_or_die("LD_PRELOAD", preload);
	free(preload);
	/* ASan insists on being first in the link order; the preload is not. */
	const char *old_asan = getenv("ASAN_OPTIONS");
	if (asprintf(&asan, "%s%sverify_asan_link_order=0",
		     old_asan ? old_asan : "", old_asan && *old_asan ? ":" : "") < 0)
		die("asprintf");
	set_or_die("ASAN_OPTIONS", asan);
	free(asan);

	int rc = rerun_self(argv, "nss_env");
	unlink(passwd);
	unlink(group);
	rmdir(dir);
	exit(rc);
}
