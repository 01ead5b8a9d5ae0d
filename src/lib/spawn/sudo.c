/*
 * sudo.c - the sudo backend: sudo -n -iu USER -- exec ruas-exec --channel
 * TOKEN, sudo started with an empty environment, so that nothing of the
 * supervisor's crosses but what the payload carries; and the payload, the
 * allowlisted values among it, goes over the channel (channel.h), never on
 * a command line, where every local user and sudo's log would read it.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "account.h"
#include "channel.h"
#include "proc.h"
#include "spawn/exec_payload.h"
#include "spawn/rendezvous.h"
#include "spawn/spawn_int.h"
#include "spawn/start.h"
#include "spawn/sudo_call.h"
#include "spawn/values.h"

extern char **environ;

/* A started sudo whose helper never came: end it, reap it, say why. */
static int abandon(struct start *s, pid_t pid, int why, ruas_error **err)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (s->pidfd >= 0)
		close(s->pidfd);
	s->pidfd = -1;
	return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, why == RENDEZVOUS_TIMEOUT ? ETIMEDOUT : errno,
			 "project \"%s\": the ruas helper did not reach the supervisor %s "
			 "(check the login files of %s, which run before it)", s->p->name,
			 why == RENDEZVOUS_TIMEOUT ? "within 60 s" : "(poll failed)",
			 s->p->run_as_user);
}

/* Waits for the helper below sudo, then hands it the payload and the stdio. */
static int meet(struct start *s, int lfd, pid_t pid, uid_t uid, const struct buf *hex,
		ruas_error **err)
{
	int chan = -1;
	s->pidfd = process_pidfd(pid);
	int r = rendezvous_accept(lfd, pid, s->pidfd, uid, &chan);
	if (r == RENDEZVOUS_GONE)
		return 0; /* sudo's own failure: its exit status and stderr tell */
	if (r != RENDEZVOUS_OK)
		return abandon(s, pid, r, err);
	if (rendezvous_deliver(chan, 0, NULL, hex, s->stdio, 3) < 0) {
		close(chan);
		return 0; /* the helper died on the way: the status tells */
	}
	s->chan = chan;
	return 0;
}

/* The call and its payload, as ruas_spawn() makes them (spawn_int.h). */
static int build_call(const struct ruas_config *cfg, const struct ruas_project *p,
		      const struct payload *pl, const char *token, struct sudo_call *call,
		      struct buf *hex)
{
	memset(call, 0, sizeof *call);
	if (payload_encode(pl, hex) < 0)
		return RUAS_ERR_NOMEM;
	if (hex->len > CHANNEL_MAX_BODY)
		return RUAS_ERR_TOOLONG;
	return sudo_call_build(call, cfg->sudo, p->run_as_user, cfg->helper, token);
}

int start_sudo(struct start *s, const struct payload *pl, pid_t *pid, ruas_error **err)
{
	const struct ruas_project *p = s->p;
	struct account a = {0};
	struct buf hex = BUF_INIT;
	struct sudo_call call;
	char token[CHANNEL_TOKEN_LEN + 1];
	int lfd = -1;
	memset(&call, 0, sizeof call);
	/*
	 * A target that does not exist gets no peer (no uid matches -1): sudo
	 * says "unknown user" itself, as it would without ruas.
	 */
	int found = account_lookup(p->run_as_user, &a);
	if (found == ACCOUNT_ERROR)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno,
				 "project \"%s\": cannot look up run_as_user \"%s\": %s", p->name,
				 p->run_as_user, strerror(errno));
	uid_t uid = found == ACCOUNT_FOUND ? a.uid : (uid_t)-1;
	int r = 0;
	if (channel_listen(token, &lfd) < 0)
		r = error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno,
			      "project \"%s\": cannot open the spawn channel: %s", p->name,
			      strerror(errno));
	else
		r = build_call(s->cfg, p, pl, token, &call, &hex);
	if (r == 0 || r == RUAS_ERR_NOMEM || r == RUAS_ERR_TOOLONG)
		r = start_target(s, r, call.argv, pid, err);
	if (r == 0)
		r = meet(s, lfd, *pid, uid, &hex, err);
	if (lfd >= 0)
		close(lfd);
	sudo_call_free(&call);
	buf_free(&hex);
	if (found == ACCOUNT_FOUND)
		account_clear(&a);
	return r;
}

static int build_with(const struct ruas_config *cfg, const struct ruas_project *p,
		      const char *const *args, const char *const *env,
		      const struct spawn_values *v, const char *token, struct sudo_call *call,
		      struct buf *payload)
{
	struct payload pl;
	struct deny_files none;
	memset(&none, 0, sizeof none);
	memset(call, 0, sizeof *call);
	int r = exec_payload_build(cfg, p, args, env, v, &none, &pl);
	if (r == 0)
		r = build_call(cfg, p, &pl, token, call, payload);
	exec_payload_free(&pl);
	return r;
}

int spawn_build_sudo_call(const struct ruas_config *cfg, const struct ruas_project *p,
			  const char *const *args, const char *const *env, const char *token,
			  struct sudo_call *call, struct buf *payload)
{
	return build_with(cfg, p, args, env, NULL, token, call, payload);
}

int spawn_build_sudo_call_opts(const struct ruas_config *cfg, const struct ruas_project *p,
			       const char *const *args, const ruas_spawn_options *o,
			       const char *token, struct sudo_call *call, struct buf *payload,
			       ruas_error **err)
{
	struct spawn_values v;
	memset(call, 0, sizeof *call);
	int r = spawn_values_check(cfg, p, o, &v, err);
	if (r == 0)
		r = build_with(cfg, p, args, o->env ? o->env : (const char *const *)environ, &v,
			       token, call, payload);
	spawn_values_free(&v);
	return r;
}
