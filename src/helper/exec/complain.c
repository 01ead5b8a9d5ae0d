/* SPDX-License-Identifier: ISC */
/* complain.c - see complain.h. */
#include "complain.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "quote.h"

void complain(const char *what, const char *arg, const char *why)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ruas-exec: ");
	buf_adds(&b, what);
	if (arg) {
		buf_addc(&b, ' ');
		quote_display_dq(&b, arg);
	}
	if (why)
		buf_printf(&b, ": %s", why);
	buf_addc(&b, '\n');
	if (b.data)
		fputs(b.data, stderr);
	buf_free(&b);
}

/* The line being written, and the last whole one (one process, one thread: no lock). */
static char line[1024], last[1024];
static size_t line_len;

static void keep_line(void)
{
	const char *s = line;
	line[line_len] = '\0';
	if (strncmp(s, "ruas-exec: ", 11) == 0)
		s += 11;
	memmove(last, s, strlen(s) + 1);
	line_len = 0;
}

static ssize_t tee_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	for (size_t i = 0; i < size; i++) {
		if (buf[i] == '\n')
			keep_line();
		else if (line_len < sizeof line - 1)
			line[line_len++] = buf[i];
	}
	/* All of it, as the descriptor takes it; what it refuses is lost, as it would be. */
	for (size_t done = 0; done < size;) {
		ssize_t n = write(2, buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)size;
}

int complain_keep(void)
{
	cookie_io_functions_t io = {.write = tee_write};
	FILE *f = fopencookie(NULL, "w", io);
	if (!f)
		return -1;
	if (setvbuf(f, NULL, _IONBF, 0) != 0) {
		fclose(f);
		return -1;
	}
	fflush(stderr);
	stderr = f;
	return 0;
}

const char *complain_last(void)
{
	return last;
}
