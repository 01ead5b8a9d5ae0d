/* SPDX-License-Identifier: ISC */
/* setup_fragment.c - see setup_fragment.h. */
#include "setup_fragment.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef char user_name[RUAS_USER_NAME_MAX + 1];

/* The comment lines the generator writes (or wrote); "%S" is the supervisor. */
static const char *const comments[] = {
	"#   ruas-setup install --supervisor %S --target USER ...",
	"#",
	"# Grants user %S passwordless sudo to run commands as the users",
	"# below, and as nobody else. None of them gets a rule of its own;",
	"# below, and as nobody else. None of them gets a rule of its own.",
	"# each may list its own rules without a password (listpw=never), so",
	"# that ruas check, run as the supervisor, sees a rule that any other",
	"# file gives it.",
	"# below, and as nobody else. None of them gets a rule that grants",
	"# anything; each may list its own rules without a password (listpw=never),",
	"# so that ruas check, run as the supervisor, sees a rule that any other",
	"# file gives it. The rule of each as itself, !ALL, grants nothing: it",
	"# gives that listing a rule to show, so that sudo does not log it as a",
	"# command not allowed.",
	NULL,
};

int setup_fragment_name_read(const char *name)
{
	size_t n = strlen(name);
	return n > 0 && !strchr(name, '.') && name[n - 1] != '~';
}

int setup_fragment_default_name(const char *name, const char *supervisor)
{
	return strncmp(name, "ruas-", 5) == 0 && strcmp(name + 5, supervisor) == 0;
}

/* A plain user name of exactly len bytes at s, copied to out. 1 yes, 0 no. */
static int take_name(const char *s, size_t len, user_name out)
{
	if (len == 0 || len > RUAS_USER_NAME_MAX)
		return 0;
	memcpy(out, s, len);
	out[len] = '\0';
	return user_name_problem(out) == NULL && strcmp(out, "root") != 0;
}

/*
 * Line (len bytes) against pattern, whose one "%S" (if any) is a user name
 * up to the next byte of the pattern, or the line's end. 1 when it matches.
 */
static int match(const char *line, size_t len, const char *pattern, user_name name)
{
	const char *hole = strstr(pattern, "%S");
	size_t pre = hole ? (size_t)(hole - pattern) : strlen(pattern);
	if (!hole)
		return len == pre && memcmp(line, pattern, len) == 0;
	const char *post = hole + 2;
	size_t postn = strlen(post);
	if (len < pre + postn || memcmp(line, pattern, pre) != 0 ||
	    memcmp(line + len - postn, post, postn) != 0)
		return 0;
	return take_name(line + pre, len - pre - postn, name);
}

/* Two holes: "A ALL=(B) NOPASSWD: ALL". */
static int match_rule(const char *line, size_t len, user_name sup, user_name target)
{
	static const char mid[] = " ALL=(", tail[] = ") NOPASSWD: ALL";
	const char *end = line + len;
	const char *sp = memchr(line, ' ', len);
	if (!sp || !take_name(line, (size_t)(sp - line), sup))
		return 0;
	if ((size_t)(end - sp) < sizeof mid - 1 || memcmp(sp, mid, sizeof mid - 1) != 0)
		return 0;
	const char *t = sp + sizeof mid - 1;
	const char *close = memchr(t, ')', (size_t)(end - t));
	if (!close || !take_name(t, (size_t)(close - t), target))
		return 0;
	return (size_t)(end - close) == sizeof tail - 1 &&
	       memcmp(close, tail, sizeof tail - 1) == 0;
}

/* "T ALL=(T) !ALL", both names the same. */
static int match_self_deny(const char *line, size_t len, user_name target)
{
	user_name again;
	const char *sp = memchr(line, ' ', len);
	if (!sp || !take_name(line, (size_t)(sp - line), target))
		return 0;
	return match(sp, len - (size_t)(sp - line), " ALL=(%S) !ALL", again) &&
	       strcmp(again, target) == 0;
}

static int not_understood(struct setup_fragment *f, unsigned int line, const char *why)
{
	f->kind = SETUP_FRAGMENT_NOT_UNDERSTOOD;
	f->bad_line = line;
	f->why = why;
	free(f->targets);
	f->targets = NULL;
	f->ntargets = 0;
	return 0;
}

/* The supervisor named on a line: the first one names it, the others must agree. */
static int same_supervisor(struct setup_fragment *f, const user_name s)
{
	if (!f->supervisor[0])
		memcpy(f->supervisor, s, sizeof(user_name));
	return strcmp(f->supervisor, s) == 0;
}

static int add_target(struct setup_fragment *f, const user_name t)
{
	user_name *v = realloc(f->targets, (f->ntargets + 1) * sizeof *v);
	if (!v)
		return -1;
	f->targets = v;
	memcpy(v[f->ntargets++], t, sizeof(user_name));
	return 0;
}

/* One line after the header: 1 understood, 0 not (why set), -1 OOM. */
static int one_line(struct setup_fragment *f, const char *line, size_t len, int *defaults_ok,
		    const char **why)
{
	user_name a, b;
	for (const char *const *c = comments; *c; c++)
		if (match(line, len, *c, a)) {
			*defaults_ok = 0;
			if (strstr(*c, "%S") && !same_supervisor(f, a))
				return (*why = "names another supervisor than the rest"), 0;
			return 1;
		}
	if (match_rule(line, len, a, b)) {
		if (!same_supervisor(f, a))
			return (*why = "grants another supervisor than the rest"), 0;
		if (strcmp(a, b) == 0)
			return (*why = "a rule for the supervisor itself"), 0;
		if (setup_fragment_grants(f, b))
			return (*why = "a target's rule twice"), 0;
		*defaults_ok = 1;
		return add_target(f, b) < 0 ? -1 : 1;
	}
	/* "Defaults:T listpw=never" right after T's rule, once. */
	if (*defaults_ok == 1 && match(line, len, "Defaults:%S listpw=never", b) &&
	    strcmp(b, f->targets[f->ntargets - 1]) == 0) {
		*defaults_ok = 2;
		return 1;
	}
	/* "T ALL=(T) !ALL" (it grants nothing) right after T's Defaults, once. */
	if (*defaults_ok == 2 && match_self_deny(line, len, b) &&
	    strcmp(b, f->targets[f->ntargets - 1]) == 0) {
		*defaults_ok = 0;
		return 1;
	}
	*why = "not one of its comments, rules or Defaults";
	return 0;
}

int setup_fragment_parse(const char *text, size_t len, struct setup_fragment *f)
{
	static const char header[] = SETUP_FRAGMENT_HEADER "\n";
	memset(f, 0, sizeof *f);
	if (len < sizeof header - 1 || memcmp(text, header, sizeof header - 1) != 0)
		return 0; /* SETUP_FRAGMENT_OTHER */
	f->kind = SETUP_FRAGMENT_OURS;
	if (len > SETUP_FRAGMENT_MAX)
		return not_understood(f, 1, "larger than ruas-setup writes");
	if (memchr(text, '\0', len))
		return not_understood(f, 1, "a NUL byte");
	if (text[len - 1] != '\n')
		return not_understood(f, 1, "no newline at its end");
	unsigned int lineno = 1;
	int defaults_ok = 0;
	for (size_t i = sizeof header - 1; i < len;) {
		const char *line = text + i;
		const char *nl = memchr(line, '\n', len - i);
		size_t n = (size_t)(nl - line);
		const char *why = NULL;
		lineno++;
		int r = one_line(f, line, n, &defaults_ok, &why);
		if (r < 0) {
			setup_fragment_clear(f);
			return -1;
		}
		if (r == 0)
			return not_understood(f, lineno, why);
		i += n + 1;
	}
	if (f->ntargets == 0)
		return not_understood(f, lineno, "no rule");
	return 0;
}

int setup_fragment_read_at(int dfd, const char *name, struct setup_fragment *f)
{
	memset(f, 0, sizeof *f);
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	struct stat st;
	int bad = fstat(fd, &st) < 0 ? errno : S_ISREG(st.st_mode) ? 0 : EINVAL;
	if (bad) {
		close(fd);
		errno = bad;
		return -1;
	}
	/* One byte more than the largest understood file, so that a larger one shows. */
	size_t cap = SETUP_FRAGMENT_MAX + 1, len = 0;
	char *text = malloc(cap);
	ssize_t n = 0;
	while (text && len < cap && ((n = read(fd, text + len, cap - len)) > 0 ||
				     (n < 0 && errno == EINTR)))
		if (n > 0)
			len += (size_t)n;
	int e = errno;
	close(fd);
	if (!text || n < 0) {
		free(text);
		errno = text ? e : ENOMEM;
		return -1;
	}
	int r = setup_fragment_parse(text, len, f);
	free(text);
	if (r < 0)
		errno = ENOMEM;
	return r;
}

int setup_fragment_grants(const struct setup_fragment *f, const char *target)
{
	for (size_t i = 0; i < f->ntargets; i++)
		if (strcmp(f->targets[i], target) == 0)
			return 1;
	return 0;
}

void setup_fragment_clear(struct setup_fragment *f)
{
	free(f->targets);
	memset(f, 0, sizeof *f);
}
