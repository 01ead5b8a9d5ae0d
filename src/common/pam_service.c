/* SPDX-License-Identifier: ISC */
/* pam_service.c - see pam_service.h. */
#include "pam_service.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *pam_service_fix(const char *service)
{
	return strcmp(service, PAM_SERVICE_RUAS) == 0
		       ? "put back the service file that ruas installs (make install, or the ruas "
			 "package, puts it at /etc/pam.d/ruas; the source has it as pam/ruas), or "
			 "name a service of your own in pam_service"
		       : "create that service file, or set pam_service to a service that exists "
			 "(ruas installs its own as /etc/pam.d/ruas)";
}

/* How far into the file its own name may be: pam/ruas has it on line 2. */
#define MARK_WITHIN 1024

int pam_service_problem(const char *dir, const char *service, char *why, size_t n)
{
	char path[4096], head[MARK_WITHIN + 1];
	struct stat st;
	if (!dir)
		dir = PAM_SERVICE_DIR;
	if (!*service || strchr(service, '/') || strcmp(service, ".") == 0 ||
	    strcmp(service, "..") == 0) {
		snprintf(why, n, "\"%s\" is not a PAM service name (a file name in %s)", service,
			 dir);
		return -1;
	}
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, service) >= sizeof path) {
		snprintf(why, n, "the path of PAM service \"%s\" is too long", service);
		return -1;
	}
	/* As libpam opens it: following a symlink (a site's own link is its business). */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		if (e == EMFILE || e == ENFILE) {
			snprintf(why, n, "cannot open %s: %s", path, strerror(e));
			errno = e;
			return PAM_SERVICE_NO_FD;
		}
		if (e == ENOENT)
			snprintf(why, n, "%s does not exist, so PAM would run %s/other in its place",
				 path, dir);
		else
			snprintf(why, n, "%s cannot be read: %s", path, strerror(e));
		return -1;
	}
	int r = -1;
	if (fstat(fd, &st) < 0) {
		snprintf(why, n, "%s cannot be read: %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(why, n, "%s is not a regular file, so PAM cannot read it as a service", path);
	} else if (strcmp(service, PAM_SERVICE_RUAS) != 0) {
		r = 0;
	} else {
		size_t got = 0;
		ssize_t k;
		while (got < MARK_WITHIN &&
		       ((k = read(fd, head + got, MARK_WITHIN - got)) > 0 || (k < 0 && errno == EINTR)))
			got += k > 0 ? (size_t)k : 0;
		head[got] = '\0';
		/* A NUL ends the text strstr sees: a binary file has no mark to find. */
		if (strstr(head, PAM_SERVICE_MARK))
			r = 0;
		else
			snprintf(why, n, "%s is not the PAM service that ruas installed (its first "
					 "lines do not say \"%s\")", path, PAM_SERVICE_MARK);
	}
	close(fd);
	return r;
}
