/*
 * sudo.c - the sudo backend: sudo -n -u USER -- ruas-exec --channel-fd 0,
 * sudo started with an empty environment, so that nothing of the
 * supervisor's crosses but what the payload carries; and the payload, the
 * allowlisted values among it, goes over the channel (channel.h), sudo's
 * standard input, never on a command line, where every local user and
 * sudo's log would read it.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

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
	const struct ruas_project *p = s->p;
	struct buf body = BUF_INIT;
	struct sudo_call call;
	int sv[2] = {-1, -1};
	int r = encode(pl, &body);
	sudo_call_build(&call, s->cfg->sudo, p->run_as_user, s->cfg->helper);
	if (r == 0 && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		r = error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno,
			      "project \"%s\": cannot open the spawn channel: %s", p->name,
			      strerror(errno));
	if (r == 0 || r == RUAS_ERR_NOMEM || r == RUAS_ERR_TOOLONG) {
		s->chan_child = sv[1];
		s->chan_fd = 0;
		r = start_target(s, r, call.argv, pid, err);
	}
	if (sv[1] >= 0)
		close(sv[1]);
	s->chan_child = -1;
	if (r == 0) {
		s->chan = sv[0];
		sv[0] = -1;
		r = start_hand_over(s, *pid, NULL, &body, err);
	}
	if (sv[0] >= 0)
		close(sv[0]);
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
	sudo_call_build(call, cfg->sudo, p->run_as_user, cfg->helper);
	int r = exec_payload_build(cfg, p, args, env, NULL, &none, &pl);
	if (r == 0)
		r = encode(&pl, payload);
	exec_payload_free(&pl);
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
	sudo_call_build(call, cfg->sudo, p->run_as_user, cfg->helper);
	int r = spawn_values_check(cfg, p, o, &v, err);
	if (r == 0)
		r = exec_payload_build(cfg, p, args, o->env ? o->env : (const char *const *)environ,
				       &v, &none, &pl);
	if (r == 0)
		r = encode(&pl, payload);
	exec_payload_free(&pl);
	spawn_values_free(&v);
	return r;
}
