/* SPDX-License-Identifier: ISC */
/* fixture.c - see fixture.h. */
#include "fixture.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	chmod(path, 0700);
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char *child = NULL;
			if (asprintf(&child, "%s/%s", path, e->d_name) < 0)
				break;
			rm_rf(child);
			free(child);
		}
		closedir(d);
	}
	rmdir(path);
}

void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	size_t n = strlen(text);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	assert_int_equal(fchmod(fd, mode), 0);
	assert_int_equal(close(fd), 0);
}

char *read_whole_file(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		fail_msg("cannot open %s", path);
	char *text = calloc(1, 1);
	size_t len = 0;
	char chunk[4096];
	size_t got;
	assert_non_null(text);
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
		char *t = realloc(text, len + got + 1);
		assert_non_null(t);
		text = t;
		memcpy(text + len, chunk, got);
		len += got;
		text[len] = '\0';
	}
	fclose(f);
	return text;
}

char *read_source_file(const char *rel)
{
	const char *top = getenv("abs_top_srcdir");
	if (!top)
		fail_msg("abs_top_srcdir unset: run through make check");
	char *path = NULL;
	assert_true(asprintf(&path, "%s/%s", top, rel) > 0);
	char *text = read_whole_file(path);
	free(path);
	if (!text[0])
		fail_msg("%s is empty", rel);
	return text;
}
