/* SPDX-License-Identifier: ISC */
/* pam_stack.c - see pam_stack.h. */
#include "check/pam_stack.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"

#define PAM_DIR "/etc/pam.d"
/* Bigger PAM files than this are not PAM files; includes deeper than this loop. */
#define FILE_MAX ((size_t)256 * 1024)
#define DEPTH_MAX 8
#define WORDS_MAX 64

static const char *const services[] = {"su",	   "su-l",    "sudo",	   "sudo-i", "doas",  "polkit-1",
				       "login", "runuser", "runuser-l", "sshd",	  "other", NULL};

struct walk {
	const char *dir;
	const char *service;
	const struct pam_user *u;
	struct pam_ways *out;
	int oom;
	size_t found; /* ways added for the service being judged */
};

char *pam_file_read(const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	struct buf b = BUF_INIT;
	char chunk[8192];
	ssize_t n;
	while (b.len < max && (n = read(fd, chunk, sizeof chunk)) > 0)
		buf_add(&b, chunk, (size_t)n);
	close(fd);
	if (b.oom) {
		buf_free(&b);
		return NULL;
	}
	return b.data ? buf_detach(&b) : strdup("");
}

int pam_user_in_group(const struct pam_user *u, gid_t g)
{
	if (u->gid == g)
		return 1;
	for (size_t i = 0; i < u->ngids; i++)
		if (u->gids[i] == g)
			return 1;
	return 0;
}

/* Is the user in the group named name (or numbered)? -1 when there is no such group. */
int pam_user_in_group_named(const struct pam_user *u, const char *name)
{
	struct group gr, *res = NULL;
	char mem[16384];
	if (getgrnam_r(name, &gr, mem, sizeof mem, &res) != 0 || !res)
		return -1;
	return pam_user_in_group(u, res->gr_gid);
}

static int num_cmp(unsigned long have, const char *op, const char *value, int *known)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(value, &end, 10);
	if (errno || end == value || *end) {
		*known = 0;
		return 1;
	}
	if (!strcmp(op, "<"))
		return have < v;
	if (!strcmp(op, "<="))
		return have <= v;
	if (!strcmp(op, ">"))
		return have > v;
	if (!strcmp(op, ">="))
		return have >= v;
	if (!strcmp(op, "eq"))
		return have == v;
	if (!strcmp(op, "ne"))
		return have != v;
	*known = 0;
	return 1;
}

/* Is word among the ':'-separated list? */
static int listed(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; *p;) {
		size_t k = strcspn(p, ":");
		if (k == n && strncmp(p, word, n) == 0)
			return 1;
		p += k;
		if (*p == ':')
			p++;
	}
	return 0;
}

/* Does one condition of pam_succeed_if hold for u? What it cannot judge holds (fail closed). */
static int condition_holds(const struct pam_user *u, const char *field, const char *op,
			   const char *value)
{
	int known = 1;
	if (!strcmp(field, "user")) {
		if (!strcmp(op, "=") || !strcmp(op, "eq"))
			return strcmp(u->name, value) == 0;
		if (!strcmp(op, "!=") || !strcmp(op, "ne"))
			return strcmp(u->name, value) != 0;
		if (!strcmp(op, "in"))
			return listed(value, u->name);
		if (!strcmp(op, "notin"))
			return !listed(value, u->name);
		if (!strcmp(op, "ingroup") || !strcmp(op, "notingroup")) {
			int in = pam_user_in_group_named(u, value);
			return in < 0 ? !strcmp(op, "notingroup") : (!strcmp(op, "ingroup") ? in : !in);
		}
		return 1;
	}
	if (!strcmp(field, "uid"))
		return num_cmp((unsigned long)u->uid, op, value, &known);
	if (!strcmp(field, "gid"))
		return num_cmp((unsigned long)u->gid, op, value, &known);
	return 1;
}

static int is_option(const char *w)
{
	static const char *const opts[] = {"debug", "use_uid", "quiet", "quiet_fail",
					   "quiet_success", "audit", NULL};
	for (size_t i = 0; opts[i]; i++)
		if (!strcmp(w, opts[i]))
			return 1;
	return 0;
}

/* pam_succeed_if's conditions (after its options): all hold for u? */
static int succeed_if_holds(const struct pam_user *u, char **args, size_t n)
{
	size_t i = 0;
	while (i < n && is_option(args[i]))
		i++;
	if (i == n)
		return 0; /* no condition: pam_succeed_if fails */
	for (; i < n; i += 4) {
		if (i + 2 >= n)
			return 1; /* cut short: cannot judge, holds */
		if (!condition_holds(u, args[i], args[i + 1], args[i + 2]))
			return 0;
		if (i + 3 < n && strcmp(args[i + 3], "and") != 0)
			return 1; /* "or" and the like: cannot judge, holds */
	}
	return 1;
}

static const char *arg_value(char **args, size_t n, const char *key)
{
	size_t k = strlen(key);
	for (size_t i = 0; i < n; i++)
		if (!strncmp(args[i], key, k) && args[i][k] == '=')
			return args[i] + k + 1;
	return NULL;
}

static int has_arg(char **args, size_t n, const char *word)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(args[i], word))
			return 1;
	return 0;
}

/* Why module (with args) lets u in without a password, or NULL. why is written into b. */
static const char *module_way(const struct pam_user *u, const char *module, char **args, size_t n,
			      struct buf *b)
{
	if (!strcmp(module, "pam_permit"))
		return "pam_permit lets anyone in";
	if (!strcmp(module, "pam_wheel") && has_arg(args, n, "trust") && !has_arg(args, n, "deny")) {
		/* group=G, else wheel, else gid 0 (as pam_wheel picks it). */
		const char *g = arg_value(args, n, "group");
		int in = pam_user_in_group_named(u, g ? g : "wheel");
		if (!g && in < 0) {
			g = "gid 0";
			in = pam_user_in_group(u, 0);
		}
		if (in <= 0)
			return NULL;
		buf_printf(b, "pam_wheel's trust lets the members of group \"%s\" in, and the user "
			      "is one", g ? g : "wheel");
		return b->data;
	}
	if (!strcmp(module, "pam_succeed_if") && succeed_if_holds(u, args, n))
		return "pam_succeed_if's conditions hold for the user";
	return NULL;
}

/* Does this control end the stack on the module's success? */
static int ends_on_success(const char *control)
{
	return !strcmp(control, "sufficient") ||
	       (control[0] == '[' && strstr(control, "success=done"));
}

/* The words of a line: a [...] control is one word, whatever its spaces. */
static size_t split(char *line, char **w, size_t max)
{
	size_t n = 0;
	char *p = line;
	while (n < max) {
		p += strspn(p, " \t");
		if (!*p)
			break;
		w[n++] = p;
		if (*p == '[') {
			char *close = strchr(p, ']');
			p = close ? close + 1 : p + strlen(p);
		} else {
			p += strcspn(p, " \t");
		}
		if (*p)
			*p++ = '\0';
	}
	return n;
}

int pam_ways_add(struct pam_ways *out, const char *service, const char *file, int line,
		 const char *text, const char *why)
{
	struct pam_way *v = realloc(out->v, (out->n + 1) * sizeof *v);
	if (!v)
		return -1;
	out->v = v;
	struct pam_way *x = &v[out->n];
	x->service = strdup(service);
	x->file = strdup(file);
	x->line = line;
	x->text = strdup(text);
	x->why = strdup(why);
	if (!x->service || !x->file || !x->text || !x->why) {
		free(x->service);
		free(x->file);
		free(x->text);
		free(x->why);
		return -1;
	}
	out->n++;
	return 0;
}

static void add_way(struct walk *w, const char *file, int line, const char *text, const char *why)
{
	if (pam_ways_add(w->out, w->service, file, line, text, why) < 0)
		w->oom = 1;
	else
		w->found++;
}

static void judge_file(struct walk *w, const char *path, int depth); /* NOLINT(misc-no-recursion) */

/* One logical line of path (its number: lineno); @include recurses, DEPTH_MAX deep at most. */
static void judge_line(struct walk *w, const char *path, int lineno, char *line, /* NOLINT(misc-no-recursion) */
		       int depth)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	char text[512];
	snprintf(text, sizeof text, "%s", line + strspn(line, " \t"));
	text[strcspn(text, "\n")] = '\0';
	for (size_t k = strlen(text); k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t'); k--)
		text[k - 1] = '\0';
	char *words[WORDS_MAX];
	size_t n = split(line, words, WORDS_MAX);
	if (n >= 2 && !strcmp(words[0], "@include")) {
		char inc[4096];
		snprintf(inc, sizeof inc, "%s%s%s", words[1][0] == '/' ? "" : w->dir,
			 words[1][0] == '/' ? "" : "/", words[1]);
		judge_file(w, inc, depth + 1);
		return;
	}
	const char *type = n ? words[0] + (words[0][0] == '-') : "";
	if (n < 3 || strcmp(type, "auth") != 0 || !ends_on_success(words[1]))
		return;
	char module[128];
	const char *base = strrchr(words[2], '/');
	snprintf(module, sizeof module, "%s", base ? base + 1 : words[2]);
	char *dot = strstr(module, ".so");
	if (dot)
		*dot = '\0';
	struct buf b = BUF_INIT;
	const char *why = module_way(w->u, module, words + 3, n - 3, &b);
	if (why)
		add_way(w, path, lineno, text, why);
	buf_free(&b);
}

static void judge_file(struct walk *w, const char *path, int depth) /* NOLINT(misc-no-recursion): see judge_line() */
{
	if (depth > DEPTH_MAX)
		return;
	char *text = pam_file_read(path, FILE_MAX);
	if (!text)
		return;
	int lineno = 0;
	for (char *p = text; *p && !w->oom;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		lineno++;
		char *line = strndup(p, len);
		if (!line) {
			w->oom = 1;
			break;
		}
		judge_line(w, path, lineno, line, depth);
		free(line);
		p += len + (nl ? 1 : 0);
	}
	free(text);
}

/* ------------------------------------------------------------- jumps */

/*
 * A line such as "auth [success=2 default=ignore] pam_succeed_if.so user =
 * T" does not end the stack: it jumps over the next lines (Debian's
 * pam_unix and pam_deny) and the stack goes on from there. So each
 * service's auth stack is also run as Linux-PAM would run it
 * (libpam/pam_dispatch.c) for the user with no password: a module that
 * module_way() lets the user through passes, one that asks nothing
 * (pam_env, pam_faildelay, ...) is ignored, any other (pam_unix, pam_deny,
 * a module this does not know) fails. A stack that then succeeds, through a
 * jump by a line that passed, is a way up, named by that line.
 */
struct aline {
	char *file;
	int lineno;
	char *text;
	char *buf; /* holds words */
	char *words[WORDS_MAX];
	size_t n;
};
struct stack {
	struct aline *v;
	size_t n;
	int oom;
};

static void stack_free(struct stack *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].file);
		free(s->v[i].text);
		free(s->v[i].buf);
	}
	free(s->v);
}

static void collect_file(struct stack *s, const char *dir, const char *path, int depth);

/* One line into s (an auth line), or the file it includes. */
static void collect_line(struct stack *s, const char *dir, const char *path, int lineno, /* NOLINT(misc-no-recursion) */
			 const char *line, int depth)
{
	char *buf = strdup(line);
	struct aline a = {NULL, lineno, NULL, buf, {NULL}, 0};
	if (!buf) {
		s->oom = 1;
		return;
	}
	buf[strcspn(buf, "#")] = '\0';
	a.n = split(buf, a.words, WORDS_MAX);
	const char *type = a.n ? a.words[0] + (a.words[0][0] == '-') : "";
	int inc = a.n >= 2 && !strcmp(a.words[0], "@include");
	int sub = a.n >= 3 && !strcmp(type, "auth") &&
		  (!strcmp(a.words[1], "include") || !strcmp(a.words[1], "substack"));
	if (inc || sub) {
		const char *f = a.words[inc ? 1 : 2];
		char incp[4096];
		snprintf(incp, sizeof incp, "%s%s%s", f[0] == '/' ? "" : dir, f[0] == '/' ? "" : "/", f);
		free(buf);
		collect_file(s, dir, incp, depth + 1);
		return;
	}
	if (a.n < 3 || strcmp(type, "auth") != 0) {
		free(buf);
		return;
	}
	struct aline *v = realloc(s->v, (s->n + 1) * sizeof *v);
	a.file = strdup(path);
	a.text = strndup(line + strspn(line, " \t"), strcspn(line + strspn(line, " \t"), "#\r\n"));
	if (!v || !a.file || !a.text) {
		if (v)
			s->v = v;
		free(a.file);
		free(a.text);
		free(buf);
		s->oom = 1;
		return;
	}
	for (size_t k = strlen(a.text); k > 0 && (a.text[k - 1] == ' ' || a.text[k - 1] == '\t'); k--)
		a.text[k - 1] = '\0';
	s->v = v;
	s->v[s->n++] = a;
}

static void collect_file(struct stack *s, const char *dir, const char *path, int depth) /* NOLINT(misc-no-recursion): DEPTH_MAX deep */
{
	if (depth > DEPTH_MAX)
		return;
	char *text = pam_file_read(path, FILE_MAX);
	int lineno = 0;
	for (char *p = text; p && *p && !s->oom;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		collect_line(s, dir, path, ++lineno, p, depth);
		p = nl ? nl + 1 : p + strlen(p);
	}
	free(text);
}

enum res { RES_PASS, RES_FAIL, RES_IGNORE };

/* What the module does for the user with no password to give. */
static enum res result_of(const struct pam_user *u, struct aline *a, struct buf *why)
{
	static const char *const passive[] = {
		"pam_env", "pam_faildelay", "pam_nologin", "pam_limits", "pam_keyinit", "pam_loginuid",
		"pam_warn", "pam_echo", "pam_motd", "pam_mail", "pam_cap", "pam_gnome_keyring",
		"pam_systemd", "pam_faillock", "pam_umask", "pam_lastlog", "pam_shells", NULL};
	char module[128];
	const char *base = strrchr(a->words[2], '/');
	snprintf(module, sizeof module, "%s", base ? base + 1 : a->words[2]);
	char *dot = strstr(module, ".so");
	if (dot)
		*dot = '\0';
	const char *way = module_way(u, module, a->words + 3, a->n - 3, why);
	if (way) {
		if (way != why->data) {
			buf_reset(why);
			buf_adds(why, way);
		}
		return RES_PASS;
	}
	for (size_t i = 0; passive[i]; i++)
		if (!strcmp(module, passive[i]))
			return RES_IGNORE;
	if (!strcmp(module, "pam_wheel") && !has_arg(a->words + 3, a->n - 3, "trust"))
		return RES_IGNORE; /* a member passes on (a restriction, not a way in) */
	return RES_FAIL;
}

/* The action of control for res: "ok", "done", "bad", "die", "ignore", "reset" or a number. */
static void action_of(const char *control, enum res r, char *out, size_t outsz)
{
	const char *key = r == RES_PASS ? "success" : r == RES_IGNORE ? "ignore" : "auth_err";
	if (control[0] != '[') {
		int req = !strcmp(control, "required"), reqs = !strcmp(control, "requisite");
		int suff = !strcmp(control, "sufficient");
		const char *act = r == RES_PASS	    ? (suff ? "done" : req || reqs ? "ok" : "ignore")
				  : r == RES_IGNORE ? "ignore"
				  : suff || !(req || reqs) ? "ignore"
				  : reqs		  ? "die"
							  : "bad";
		snprintf(out, outsz, "%s", act);
		return;
	}
	char want[64], dflt[64] = "bad"; /* an unnamed value: bad, as Linux-PAM has it */
	snprintf(want, sizeof want, "%s=", key);
	const char *p = strstr(control, want);
	const char *d = strstr(control, "default=");
	if (d)
		snprintf(dflt, sizeof dflt, "%.*s", (int)strcspn(d + 8, " \t]"), d + 8);
	if (p && (p == control + 1 || p[-1] == ' ' || p[-1] == '\t'))
		snprintf(out, outsz, "%.*s", (int)strcspn(p + strlen(want), " \t]"), p + strlen(want));
	else
		snprintf(out, outsz, "%s", dflt);
}

/*
 * The stack run for the user: 1 when it succeeds through a jump made by a
 * line that passed (*blame: that line, *why: why it passed), else 0.
 */
static int succeeds_by_jump(const struct pam_user *u, struct stack *s, size_t *blame,
			    struct buf *why)
{
	int ok = 0, bad = 0, jumped = 0;
	for (size_t i = 0; i < s->n; i++) {
		struct buf w = BUF_INIT;
		enum res r = result_of(u, &s->v[i], &w);
		char act[64];
		action_of(s->v[i].words[1], r, act, sizeof act);
		char *end;
		unsigned long n = strtoul(act, &end, 10);
		if (act[0] >= '1' && act[0] <= '9' && !*end) {
			if (r == RES_PASS && !jumped) {
				jumped = 1;
				*blame = i;
				buf_reset(why);
				buf_adds(why, w.data ? w.data : "");
			}
			i += n;
		} else if (!strcmp(act, "ok") || !strcmp(act, "done")) {
			ok |= r == RES_PASS;
			if (!strcmp(act, "done")) {
				buf_free(&w);
				break;
			}
		} else if (!strcmp(act, "bad")) {
			bad = 1;
		} else if (!strcmp(act, "die")) {
			bad = 1;
			buf_free(&w);
			break;
		} else if (!strcmp(act, "reset")) {
			ok = bad = 0;
		}
		buf_free(&w);
	}
	return jumped && ok && !bad;
}

static void judge_jumps(struct walk *w, const char *path)
{
	struct stack s = {NULL, 0, 0};
	collect_file(&s, w->dir, path, 0);
	size_t blame = 0;
	struct buf why = BUF_INIT;
	if (!s.oom && succeeds_by_jump(w->u, &s, &blame, &why)) {
		struct buf b = BUF_INIT;
		buf_printf(&b, "%s, and its jump over the lines after it (a password module, "
			       "pam_deny) lands where the stack succeeds",
			   why.data ? why.data : "it passes for the user");
		if (b.oom)
			w->oom = 1;
		else
			add_way(w, s.v[blame].file, s.v[blame].lineno, s.v[blame].text, b.data);
		buf_free(&b);
	}
	w->oom |= s.oom | why.oom;
	buf_free(&why);
	stack_free(&s);
}

int pam_ways_up(const char *dir, const struct pam_user *u, struct pam_ways *out)
{
	struct walk w = {dir ? dir : PAM_DIR, NULL, u, out, 0, 0};
	out->v = NULL;
	out->n = 0;
	for (size_t i = 0; services[i] && !w.oom; i++) {
		char path[4096];
		w.service = services[i];
		snprintf(path, sizeof path, "%s/%s", w.dir, services[i]);
		w.found = 0;
		judge_file(&w, path, 0);
		/* A stack that ends on a line of its own is named there already. */
		if (!w.found)
			judge_jumps(&w, path);
	}
	if (w.oom) {
		pam_ways_free(out);
		return -1;
	}
	return 0;
}

void pam_ways_free(struct pam_ways *w)
{
	for (size_t i = 0; w->v && i < w->n; i++) {
		free(w->v[i].service);
		free(w->v[i].file);
		free(w->v[i].text);
		free(w->v[i].why);
	}
	free(w->v);
	w->v = NULL;
	w->n = 0;
}
