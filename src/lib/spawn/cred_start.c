/* SPDX-License-Identifier: ISC */
/* cred_start.c - see cred_start.h. */
#include "spawn/cred_start.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cred/serve.h"
#include "error.h"
#include "strv.h"

/* The payload's git hosts (payload.h), "PROTOCOL HOST NAME USER" each: 0, or -1 when out of memory. */
static int git_hosts_of(const struct ruas_project *p, struct payload *pl)
{
	pl->ngit_hosts = 0;
	if (!p->git_hosts.n)
		return 0;
	if (!(pl->git_hosts = calloc(p->git_hosts.n + 1, sizeof *pl->git_hosts)))
		return -1;
	for (size_t i = 0; i < p->git_hosts.n; i++) {
		const struct git_host *g = &p->git_hosts.v[i];
		struct buf b = BUF_INIT;
		buf_printf(&b, "%s %s %s %s", g->http ? "http" : "https", g->host, g->credential,
			   g->username);
		if (b.oom)
			return -1;
		pl->git_hosts[pl->ngit_hosts++] = b.data;
	}
	return 0;
}

int start_credentials(struct start *s, uid_t target_uid, struct payload *pl, char gate[64],
		      ruas_error **err)
{
	if (!s->p->credentials.n && !s->cred_cb)
		return 0;
	if (!(s->cred = cred_serve_new(s->p, target_uid, s->env, s->cred_cb, s->cred_payload, gate,
				       &s->cred_fd))) {
		int e = errno;
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot set up the run's credentials: %s; nothing "
				 "was started", s->p->name, strerror(e));
	}
	pl->credentials = gate; /* not the payload's to free: exec_payload_free() leaves it */
	if (git_hosts_of(s->p, pl) == 0)
		return 0;
	cred_serve_free(s->cred);
	s->cred = NULL;
	close(s->cred_fd);
	s->cred_fd = -1;
	strv_free(pl->git_hosts);
	pl->git_hosts = NULL;
	pl->ngit_hosts = 0;
	pl->credentials = NULL;
	return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
}

int start_serving(struct ruas_child *c, struct cred_serve *cs, int recorded,
		  const struct ruas_project *p, ruas_error **err)
{
	c->cred = cs;
	if (recorded < 0)
		return recorded;
	int e = c->cred ? cred_serve_start(c->cred, c->audit) : 0;
	if (!e)
		return 0;
	return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
			 "project \"%s\": cannot start the thread that serves the run's "
			 "credentials: %s; the agent was ended", p->name, strerror(e));
}
