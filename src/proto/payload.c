/* SPDX-License-Identifier: ISC */
/* payload.c - PAYLOAD, the helper's first message; see payload.h. */
#include "payload.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "codec.h"

#define MAGIC "RUAS"

static int encode_exec(const struct payload *p, struct buf *b)
{
	if (p->argc < 1 || !p->argv || enc_str(b, p->helper) < 0 ||
	    enc_str(b, p->shell ? p->shell : "") < 0 || enc_str(b, p->home ? p->home : "") < 0 ||
	    enc_str(b, p->work_dir) < 0 || enc_str(b, p->scope ? p->scope : "") < 0)
		return -1;
	enc_u32(b, (uint32_t)p->nenv);
	for (size_t i = 0; i < p->nenv; i++)
		if (enc_str(b, p->env_names[i]) < 0 || enc_str(b, p->env_values[i]) < 0)
			return -1;
	if (enc_strv(b, p->argv, p->argc) < 0)
		return -1;
	enc_u32(b, p->supervisor_pid);
	enc_u64(b, p->supervisor_start);
	enc_u32(b, p->grace_seconds);
	enc_u32(b, p->exec_flags);
	if (enc_str(b, p->person ? p->person : "") < 0 || enc_strv(b, p->deny, p->ndeny) < 0)
		return -1;
	enc_u32(b, p->lifetime);
	if (enc_str(b, p->root ? p->root : "") < 0 || enc_str(b, p->run_id ? p->run_id : "") < 0)
		return -1;
	enc_u32(b, p->audit_facility);
	enc_u64(b, p->rlim_nofile);
	enc_u64(b, p->rlim_fsize);
	enc_u32(b, p->core_dumps);
	if (enc_str(b, p->cgroup ? p->cgroup : "") < 0 ||
	    enc_str(b, p->credentials ? p->credentials : "") < 0)
		return -1;
	return enc_strv(b, p->git_hosts, p->ngit_hosts);
}

static int encode_check(const struct payload *p, struct buf *b)
{
	if (enc_str(b, p->sudo_path) < 0)
		return -1;
	enc_u32(b, p->scan_cap);
	enc_u32(b, p->scan_seconds);
	enc_u32(b, (uint32_t)p->ndirs);
	for (size_t i = 0; i < p->ndirs; i++) {
		const struct payload_dir *d = &p->dirs[i];
		if (enc_str(b, d->work_dir) < 0 || enc_str(b, d->scope ? d->scope : "") < 0 ||
		    enc_strv(b, d->prune, d->nprune) < 0)
			return -1;
	}
	enc_u32(b, p->check_flags);
	if (enc_strv(b, p->probes, p->nprobes) < 0 || enc_strv(b, p->anchors, p->nanchors) < 0 ||
	    enc_str(b, p->known_listing ? p->known_listing : "") < 0 ||
	    enc_strv(b, p->judged_trees, p->njudged_trees) < 0 ||
	    enc_strv(b, p->commands, p->ncommands) < 0)
		return -1;
	return 0;
}

int payload_encode(const struct payload *p, struct buf *out)
{
	size_t start = out->len;
	int r = -1;
	buf_add(out, MAGIC, 4);
	enc_u8(out, PAYLOAD_VERSION);
	enc_u8(out, (unsigned int)p->kind);
	if (!p->user || !*p->user || strchr(p->user, '/') || enc_str(out, p->user) < 0)
		r = -1;
	else if (p->kind == PAYLOAD_EXEC)
		r = encode_exec(p, out);
	else if (p->kind == PAYLOAD_CHECK)
		r = encode_check(p, out);
	if (r < 0 || out->oom) {
		/* Nothing half-written is left for a caller to send. */
		if (out->data && !out->oom) {
			out->len = start;
			out->data[start] = '\0';
		}
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ decoding */

/* The lifetime mode, one of enum payload_lifetime. */
static int dec_lifetime(struct dec *d, unsigned int *out)
{
	uint32_t v;
	if (dec_u32(d, &v) < 0)
		return -1;
	if (v > LIFETIME_AUTO)
		return dec_fail(d, "payload lifetime mode unknown");
	*out = v;
	return 0;
}

static int dec_uint(struct dec *d, unsigned int *out)
{
	uint32_t v;
	if (dec_u32(d, &v) < 0)
		return -1;
	*out = v;
	return 0;
}

static int decode_exec(struct dec *d, struct payload *p)
{
	if (dec_str(d, &p->helper) < 0 || dec_str(d, &p->shell) < 0 || dec_str(d, &p->home) < 0 ||
	    dec_str(d, &p->work_dir) < 0 || dec_str(d, &p->scope) < 0 ||
	    dec_count(d, 8, &p->nenv) < 0)
		return -1;
	p->env_names = calloc(p->nenv + 1, sizeof(char *));
	p->env_values = calloc(p->nenv + 1, sizeof(char *));
	if (!p->env_names || !p->env_values)
		return dec_fail(d, "out of memory");
	for (size_t i = 0; i < p->nenv; i++)
		if (dec_str(d, &p->env_names[i]) < 0 || dec_str(d, &p->env_values[i]) < 0)
			return -1;
	if (dec_strv_counted(d, &p->argc, &p->argv) < 0)
		return -1;
	if (p->argc < 1 || p->argv[0][0] == '\0')
		return dec_fail(d, "payload has an empty command");
	if (p->helper[0] != '/')
		return dec_fail(d, "payload's helper path is not absolute");
	uint64_t start;
	if (dec_uint(d, &p->supervisor_pid) < 0 || dec_u64(d, &start) < 0 ||
	    dec_uint(d, &p->grace_seconds) < 0 || dec_uint(d, &p->exec_flags) < 0 ||
	    dec_str(d, &p->person) < 0 || dec_strv_counted(d, &p->ndeny, &p->deny) < 0 ||
	    dec_lifetime(d, &p->lifetime) < 0 || dec_str(d, &p->root) < 0 ||
	    dec_str(d, &p->run_id) < 0 || dec_uint(d, &p->audit_facility) < 0)
		return -1;
	uint64_t nofile, fsize;
	if (dec_u64(d, &nofile) < 0 || dec_u64(d, &fsize) < 0 || dec_uint(d, &p->core_dumps) < 0)
		return -1;
	p->rlim_nofile = nofile;
	p->rlim_fsize = fsize;
	if (p->core_dumps > 1)
		return dec_fail(d, "payload core_dumps is neither 0 nor 1");
	if (dec_str(d, &p->cgroup) < 0)
		return -1;
	/* As the kernel names one: beneath the mount, one line. */
	if (p->cgroup[0] && (p->cgroup[0] != '/' || strchr(p->cgroup, '\n')))
		return dec_fail(d, "payload cgroup is not a cgroup v2 path");
	if (dec_str(d, &p->credentials) < 0)
		return -1;
	if (!payload_credentials_ok(p->credentials))
		return dec_fail(d, "payload credentials gate is not one the library names");
	if (dec_strv_counted(d, &p->ngit_hosts, &p->git_hosts) < 0)
		return -1;
	for (size_t i = 0; i < p->ngit_hosts; i++)
		if (!payload_git_host_ok(p->git_hosts[i]))
			return dec_fail(d, "payload git host is not PROTOCOL HOST NAME USER");
	if (p->ngit_hosts && !*p->credentials)
		return dec_fail(d, "payload git hosts come only with a credentials gate");
	p->supervisor_start = start;
	if (p->exec_flags & ~(unsigned int)EXEC_FLAGS_ALL)
		return dec_fail(d, "payload exec flags unknown");
	if (!payload_run_id_ok(p->run_id) || !payload_facility_ok(p->audit_facility))
		return dec_fail(d, "payload run id or audit facility is not one the library makes");
	return 0;
}

static int decode_check(struct dec *d, struct payload *p)
{
	if (dec_str(d, &p->sudo_path) < 0 || dec_uint(d, &p->scan_cap) < 0 ||
	    dec_uint(d, &p->scan_seconds) < 0 || dec_count(d, 12, &p->ndirs) < 0)
		return -1;
	p->dirs = calloc(p->ndirs + 1, sizeof *p->dirs);
	if (!p->dirs)
		return dec_fail(d, "out of memory");
	for (size_t i = 0; i < p->ndirs; i++) {
		struct payload_dir *pd = &p->dirs[i];
		if (dec_str(d, &pd->work_dir) < 0 || dec_str(d, &pd->scope) < 0 ||
		    dec_strv_counted(d, &pd->nprune, &pd->prune) < 0)
			return -1;
	}
	if (dec_uint(d, &p->check_flags) < 0 || dec_strv_counted(d, &p->nprobes, &p->probes) < 0 ||
	    dec_strv_counted(d, &p->nanchors, &p->anchors) < 0 || dec_str(d, &p->known_listing) < 0 ||
	    dec_strv_counted(d, &p->njudged_trees, &p->judged_trees) < 0 ||
	    dec_strv_counted(d, &p->ncommands, &p->commands) < 0)
		return -1;
	for (size_t i = 0; i < p->ncommands; i++)
		if (!p->commands[i][0])
			return dec_fail(d, "payload command empty");
	if (p->check_flags & ~(unsigned int)CHECK_FLAGS_ALL)
		return dec_fail(d, "payload check flags unknown");
	return 0;
}

int payload_facility_ok(unsigned int f)
{
	/* 0, or one that audit_facility can name, plus 1 (config/audit_keys.c). */
	static const int named[] = {LOG_AUTHPRIV, LOG_AUTH,   LOG_DAEMON, LOG_USER,
				    LOG_LOCAL0,   LOG_LOCAL1, LOG_LOCAL2, LOG_LOCAL3,
				    LOG_LOCAL4,   LOG_LOCAL5, LOG_LOCAL6, LOG_LOCAL7};
	if (f == 0)
		return 1;
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
		if (f == (unsigned int)(named[i] >> 3) + 1)
			return 1;
	return 0;
}

/* n bytes of s, each a letter, a digit or one of extra (not first when first_plain). */
static int token_ok(const char *s, size_t n, const char *extra)
{
	if (n == 0 || n > 253)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || (i > 0 && strchr(extra, s[i]))))
			return 0;
	return 1;
}

int payload_git_host_ok(const char *e)
{
	const char *host, *name, *user;
	if (strncmp(e, "https ", 6) == 0)
		host = e + 6;
	else if (strncmp(e, "http ", 5) == 0)
		host = e + 5;
	else
		return 0;
	if (!(name = strchr(host, ' ')) || !(user = strchr(name + 1, ' ')) || strchr(user + 1, ' '))
		return 0;
	name++;
	user++;
	/* Each is held to what a shell takes as it is: git runs the helper's setting through one. */
	return token_ok(host, (size_t)(name - 1 - host), ".-:") &&
	       token_ok(name, (size_t)(user - 1 - name), "._-") && token_ok(user, strlen(user), "._@+-");
}

int payload_credentials_ok(const char *name)
{
	size_t n = sizeof PAYLOAD_CREDENTIALS_PREFIX - 1;
	if (!*name)
		return 1;
	if (strncmp(name, PAYLOAD_CREDENTIALS_PREFIX, n) != 0 || strlen(name + n) != 32)
		return 0;
	return payload_run_id_ok(name + n);
}

int payload_run_id_ok(const char *id)
{
	size_t n = strlen(id);
	if (n != 0 && n != 32)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
			return 0;
	return 1;
}

int payload_decode(const void *data, size_t len, struct payload *out, const char **why)
{
	struct dec d;
	unsigned int version, kind;
	int rc = -1;
	memset(out, 0, sizeof *out);
	dec_init(&d, data, len);
	if (!data || len < 6 || memcmp(data, MAGIC, 4) != 0) {
		dec_fail(&d, "payload has no RUAS header");
		goto done;
	}
	d.p += 4;
	d.left -= 4;
	if (dec_u8(&d, &version) < 0 || dec_u8(&d, &kind) < 0)
		goto done;
	if (version != PAYLOAD_VERSION) {
		dec_fail(&d, "payload version mismatch (helper and library differ)");
		goto done;
	}
	out->kind = (int)kind;
	if (kind != PAYLOAD_EXEC && kind != PAYLOAD_CHECK)
		dec_fail(&d, "payload kind unknown");
	else if (dec_str(&d, &out->user) < 0)
		rc = -1;
	else if (!*out->user || strchr(out->user, '/'))
		rc = dec_fail(&d, "payload's user name is empty or has a '/'");
	else if (kind == PAYLOAD_EXEC)
		rc = decode_exec(&d, out);
	else
		rc = decode_check(&d, out);
	if (rc == 0)
		rc = dec_done(&d);
done:
	if (rc < 0) {
		payload_free(out);
		if (why)
			*why = d.why ? d.why : "payload invalid";
	}
	return rc;
}

void payload_free(struct payload *p)
{
	free(p->user);
	free(p->helper);
	free(p->shell);
	free(p->home);
	free(p->work_dir);
	free(p->scope);
	free(p->root);
	free(p->run_id);
	free(p->cgroup);
	free(p->credentials);
	strv_free_n(p->git_hosts, p->ngit_hosts);
	strv_free_n(p->env_names, p->nenv);
	strv_free_n(p->env_values, p->nenv);
	strv_free_n(p->argv, p->argc);
	free(p->sudo_path);
	free(p->person);
	strv_free_n(p->deny, p->ndeny);
	strv_free_n(p->probes, p->nprobes);
	strv_free_n(p->anchors, p->nanchors);
	strv_free_n(p->judged_trees, p->njudged_trees);
	strv_free_n(p->commands, p->ncommands);
	free(p->known_listing);
	if (p->dirs) {
		for (size_t i = 0; i < p->ndirs; i++) {
			free(p->dirs[i].work_dir);
			free(p->dirs[i].scope);
			strv_free_n(p->dirs[i].prune, p->dirs[i].nprune);
		}
		free(p->dirs);
	}
	memset(p, 0, sizeof *p);
}

int payload_hello_encode(struct buf *out)
{
	buf_add(out, MAGIC, 4);
	enc_u8(out, PAYLOAD_VERSION);
	return out->oom ? -1 : 0;
}

int payload_hello_decode(const void *body, size_t len, unsigned int *version)
{
	const unsigned char *b = body;
	if (len != PAYLOAD_HELLO_BODY || memcmp(b, MAGIC, 4) != 0)
		return -1;
	*version = b[4];
	return 0;
}
