/* SPDX-License-Identifier: ISC */
/*
 * file.c - the entry points that load ruas.conf: reading it from a path
 * (refusing a file that someone besides root and the supervisor could have
 * written) or from a buffer, parsing it with libconfig, and handing its
 * groups to the schema (config.c, people.c, project.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/count.h"
#include "account.h"
#include "buf.h"
#include "config/loader.h"
#include "config/syntax_hint.h"
#include "error.h"

#define CONFIG_MAX_BYTES (4u << 20)

int ld_set_supervisor(struct loader *ld, const ruas_config_options *opts)
{
	uid_t uid = opts && opts->supervisor_uid != (uid_t)-1 ? opts->supervisor_uid
							    : geteuid();
	ld->cfg->supervisor_uid = uid;
	struct account acct;
	int r = account_lookup_uid(uid, &acct);
	if (r == ACCOUNT_FOUND) {
		ld->cfg->supervisor_name = acct.name;
		acct.name = NULL;
		account_clear(&acct);
	} else {
		struct buf b = BUF_INIT;
		buf_printf(&b, "#%u", (unsigned)uid);
		ld->cfg->supervisor_name = buf_detach(&b);
	}
	return ld->cfg->supervisor_name ? 0 : ld_oom(ld);
}

/*
 * libconfig follows @include by itself, to files that the ownership check
 * never saw. One file, checked, is the configuration.
 */
static int refuse_includes(struct loader *ld, const char *text)
{
	int line = 1;
	for (const char *p = text; *p; line++) {
		const char *q = p + strspn(p, " \t\r\f\v");
		if (strncmp(q, "@include", 8) == 0)
			return error_set(ld->err, RUAS_ERR_CONFIG, ld->file, line, 0,
					 "%s:%d: @include is not supported: an included "
					 "file would escape the ownership check; put "
					 "everything in this file", ld->file, line);
		const char *nl = strchr(p, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

/* The list of projects: each a group, which the schema adds. */
static int load_projects(struct loader *ld, config_t *lc)
{
	config_setting_t *root = config_root_setting(lc);
	config_setting_t *list = config_setting_get_member(root, "projects");
	if (!list)
		return ld_fail(ld, NULL, "missing key \"projects\"");
	if (config_setting_type(list) != CONFIG_TYPE_LIST)
		return ld_fail(ld, list, "\"projects\" must be a list: projects = ( { ... }, { ... } );");
	int n = config_setting_length(list);
	for (int i = 0; i < n; i++) {
		config_setting_t *ps = config_setting_get_elem(list, (unsigned)i);
		ld->project = NULL;
		if (!config_setting_is_group(ps))
			return ld_fail(ld, ps, "each entry of \"projects\" must be a group { ... }");
		struct src s = src_group(ps);
		int r = schema_add_project(ld, &s);
		if (r < 0)
			return r;
	}
	return 0;
}

int load_schema(struct loader *ld, config_t *lc)
{
	struct src root = src_group(config_root_setting(lc));
	int r = schema_globals(ld, &root);
	if (r == 0)
		r = load_people(ld, lc);
	if (r == 0)
		r = load_projects(ld, lc);
	return r;
}

static int load_text(struct loader *ld, const char *text,
		     const ruas_config_options *opts)
{
	config_t lc;
	int r;

	if ((r = refuse_includes(ld, text)) < 0)
		return r;
	config_init(&lc);
	if (ld_set_supervisor(ld, opts) < 0) {
		config_destroy(&lc);
		return RUAS_ERR_NOMEM;
	}
	if (config_read_string(&lc, text) != CONFIG_TRUE) {
		int line = config_error_line(&lc);
		const char *file = config_error_file(&lc);
		char hint[192];
		/* libconfig says "syntax error" and no more: say what is most likely missing. */
		if (config_syntax_hint(text, hint, sizeof hint))
			r = error_set(ld->err, RUAS_ERR_CONFIG, file ? file : ld->file, line, 0,
				      "%s:%d: syntax error: %s", file ? file : ld->file, line, hint);
		else
			r = error_set(ld->err, RUAS_ERR_CONFIG, file ? file : ld->file, line, 0,
				      "%s:%d: syntax error: %s (each setting is NAME = VALUE; a "
				      "list is ( ... ), an array [ ... ], a group { ... })",
				      file ? file : ld->file, line, config_error_text(&lc));
		config_destroy(&lc);
		return r;
	}
	r = load_schema(ld, &lc);
	config_destroy(&lc);
	return r;
}

int ruas_config_load_buffer(ruas_config **out, const char *text, size_t len,
			    const char *name, const ruas_config_options *opts,
			    ruas_error **err)
{
	struct loader ld = {name ? name : "(buffer)", err, NULL, NULL};
	*out = NULL;
	if (error_options_version(err, "ruas_config_load", opts ? &opts->version : NULL,
				  RUAS_CONFIG_OPTIONS_VERSION, RUAS_CONFIG_OPTIONS_VERSION))
		return RUAS_ERR_INVALID;
	if (!text || memchr(text, '\0', len))
		return error_set(err, RUAS_ERR_CONFIG, ld.file, 0, 0,
				 "%s: configuration contains a NUL byte", ld.file);
	char *copy = strndup(text, len);
	ld.cfg = calloc(1, sizeof *ld.cfg);
	if (!copy || !ld.cfg || !(ld.cfg->path = strdup(ld.file)) ||
	    !(ld.cfg->audit_undelivered = audit_count_new())) {
		free(copy);
		ruas_config_free(ld.cfg);
		return ld_oom(&ld);
	}
	int r = load_text(&ld, copy, opts);
	free(copy);
	if (r < 0) {
		ruas_config_free(ld.cfg);
		return r;
	}
	*out = ld.cfg;
	return 0;
}

/*
 * The configuration decides who runs what as whom. Like sshd with its
 * files, refuse one that someone besides root and the supervisor could
 * have changed.
 */
static int check_file_owner(const char *path, const struct stat *st,
			    const ruas_config_options *opts, ruas_error **err)
{
	uid_t sup = opts && opts->supervisor_uid != (uid_t)-1 ? opts->supervisor_uid
							    : geteuid();
	if (st->st_uid != 0 && st->st_uid != sup)
		return error_set(err, RUAS_ERR_CONFIG, path, 0, 0,
				 "%s: owned by uid %u, which is neither root nor the "
				 "supervisor; fix with: chown root %s",
				 path, (unsigned)st->st_uid, path);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return error_set(err, RUAS_ERR_CONFIG, path, 0, 0,
				 "%s: writable by group or others (mode %03o), so "
				 "another user could choose what runs as whom; fix "
				 "with: chmod go-w %s",
				 path, (unsigned)(st->st_mode & 07777), path);
	return 0;
}

/* What a path that is not a regular file is, for the message. */
static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode)    ? "a directory"
	       : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISSOCK(mode) ? "a socket"
	       : S_ISCHR(mode)  ? "a character device"
	       : S_ISBLK(mode)  ? "a block device"
				: "not a file";
}

int ruas_config_load(ruas_config **out, const char *path,
		     const ruas_config_options *opts, ruas_error **err)
{
	struct stat st;
	struct buf text = BUF_INIT;
	*out = NULL;
	if (!path)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0, "no configuration path");
	if (error_options_version(err, "ruas_config_load", opts ? &opts->version : NULL,
				  RUAS_CONFIG_OPTIONS_VERSION, RUAS_CONFIG_OPTIONS_VERSION))
		return RUAS_ERR_INVALID;
	/* O_NONBLOCK: a FIFO put there is refused below, never waited on in open(). */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		return error_set(err, RUAS_ERR_CONFIG, path, 0, e,
				 "%s: cannot open: %s", path, strerror(e));
	}
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return error_set(err, RUAS_ERR_CONFIG, path, 0, e, "%s: cannot look at it: %s",
				 path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return error_set(err, RUAS_ERR_CONFIG, path, 0, 0,
				 "%s: not a regular file (%s)", path, file_kind(st.st_mode));
	}
	int r = (opts && opts->skip_owner_check) ? 0
						 : check_file_owner(path, &st, opts, err);
	while (r == 0) {
		if (buf_reserve(&text, 65536) < 0) {
			r = error_set(err, RUAS_ERR_NOMEM, path, 0, ENOMEM, "out of memory");
			break;
		}
		ssize_t n = read(fd, text.data + text.len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			r = error_set(err, RUAS_ERR_CONFIG, path, 0, e,
				      "%s: cannot read: %s", path, strerror(e));
			break;
		}
		if (n == 0)
			break;
		text.len += (size_t)n;
		text.data[text.len] = '\0';
		if (text.len > CONFIG_MAX_BYTES)
			r = error_set(err, RUAS_ERR_CONFIG, path, 0, 0,
				      "%s: larger than 4 MiB", path);
	}
	close(fd);
	if (r == 0)
		r = ruas_config_load_buffer(out, text.data ? text.data : "", text.len,
					    path, opts, err);
	if (r == 0 && *out) {
		/* What was read, as a kept verdict's key names it (check/verdict.h). */
		(*out)->file_id.set = 1;
		(*out)->file_id.dev = st.st_dev;
		(*out)->file_id.ino = st.st_ino;
		(*out)->file_id.size = st.st_size;
		(*out)->file_id.mtime = st.st_mtim;
		(*out)->file_id.ctime = st.st_ctim;
	}
	buf_free(&text);
	return r;
}
