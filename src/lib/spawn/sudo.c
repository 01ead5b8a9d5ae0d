/* SPDX-License-Identifier: ISC */
/*
 * sudo.c - the sudo backend: sudo -n -u USER -- ruas-exec --channel-fd 0,
 * sudo started with an empty environment, so that nothing of the
 * supervisor's crosses but what the payload carries; and the payload, the
 * allowlisted values among it, goes over the channel (channel.h), sudo's
 * standard input, never on a command line, where every local user and
 * sudo's log would read it.
 */
#include <string.h>

#include "channel.h"
#include "spawn/exec_payload.h"
#include "spawn/spawn_int.h"
#include "spawn/start.h"
#include "spawn/sudo_call.h"
#include "spawn/values.h"

extern char **environ;

/* The payload, as ruas_spawn() makes it (spawn_int.h): 0, RUAS_ERR_NOMEM or RUAS_ERR_TOOLONG. */
static int encode(const struct payload *pl, struct buf *out)
{
	if (payload_encode(pl, out) < 0)
		return RUAS_ERR_NOMEM;
	return out->len > CHANNEL_MAX_BODY ? RUAS_ERR_TOOLONG : 0;
}

int start_sudo(struct start *s, const struct payload *pl, pid_t *pid, ruas_error **err)
{
	struct buf body = BUF_INIT;
	struct sudo_call call;
	sudo_call_build(&call, s->cfg->sudo, s->p->run_as_user, s->cfg->helper);
	int r = start_with_channel(s, encode(pl, &body), call.argv, 0, NULL, &body, pid, err);
	buf_free(&body);
	return r;
}

int spawn_build_sudo_call(const struct ruas_config *cfg, const struct ruas_project *p,
			  const char *const *args, const char *const *env, struct sudo_call *call,
			  struct buf *payload)
{
	struct payload pl;
	struct deny_files none;
	memset(&none, 0, sizeof none);
	struct account acct;
	sudo_call_build(call, cfg->sudo, p->run_as_user, cfg->helper);
	if (account_lookup(p->run_as_user, &acct) != ACCOUNT_FOUND)
		return RUAS_ERR_CONFIG;
	int r = exec_payload_build(cfg, p, &acct, args, env, NULL, &none, &pl);
	if (r == 0)
		r = encode(&pl, payload);
	exec_payload_free(&pl);
	account_clear(&acct);
	return r;
}

int spawn_build_sudo_call_opts(const struct ruas_config *cfg, const struct ruas_project *p,
			       const char *const *args, const ruas_spawn_options *o,
			       struct sudo_call *call, struct buf *payload, ruas_error **err)
{
	struct spawn_values v;
	struct payload pl;
	struct deny_files none;
	memset(&none, 0, sizeof none);
	memset(&pl, 0, sizeof pl);
	struct account acct;
	sudo_call_build(call, cfg->sudo, p->run_as_user, cfg->helper);
	if (account_lookup(p->run_as_user, &acct) != ACCOUNT_FOUND)
		return RUAS_ERR_CONFIG;
	int r = spawn_values_check(cfg, p, o, &v, err);
	if (r == 0)
		r = exec_payload_build(cfg, p, &acct, args,
				       o->env ? o->env : (const char *const *)environ, &v, &none, &pl);
	if (r == 0)
		r = encode(&pl, payload);
	exec_payload_free(&pl);
	spawn_values_free(&v);
	account_clear(&acct);
	return r;
}
