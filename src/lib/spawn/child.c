/*
 * child.c - the handle of a started agent: its pid, waiting for it,
 * signalling it, and at free its deny files. One lock orders reaping
 * against signalling, so that no signal goes to a recycled pid.
 */
#include "spawn/child.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "error.h"
#include "exit_status.h"
#include "people/deny_files.h"

pid_t ruas_child_pid(const ruas_child *c)
{
	return c->pid;
}

/*
 * Waits without reaping first (WNOWAIT), then reaps under the lock, so a
 * concurrent ruas_child_signal() can never hit a recycled pid.
 */
static int wait_common(ruas_child *c, int *exit_code, int block, ruas_error **err)
{
	siginfo_t si;
	pthread_mutex_lock(&c->lock);
	int done = c->reaped;
	pthread_mutex_unlock(&c->lock);
	if (!done) {
		memset(&si, 0, sizeof si);
		int r;
		while ((r = waitid(P_PID, (id_t)c->pid, &si,
				   WEXITED | WNOWAIT | (block ? 0 : WNOHANG))) < 0 &&
		       errno == EINTR)
			;
		if (r < 0 && errno != ECHILD)
			return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno,
					 "waiting for pid %d: %s", (int)c->pid,
					 strerror(errno));
		if (r == 0 && si.si_pid == 0)
			return 1; /* still running */
		pthread_mutex_lock(&c->lock);
		if (!c->reaped) {
			int status;
			pid_t w;
			while ((w = waitpid(c->pid, &status, 0)) < 0 && errno == EINTR)
				;
			if (w == c->pid) {
				c->exit_code = exit_status_code(status);
				c->reaped = 1;
			}
		}
		done = c->reaped;
		pthread_mutex_unlock(&c->lock);
		if (!done)
			return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, ECHILD,
					 "pid %d was reaped by someone else", (int)c->pid);
	}
	if (exit_code)
		*exit_code = c->exit_code;
	return 0;
}

int ruas_child_wait(ruas_child *c, int *exit_code, ruas_error **err)
{
	return wait_common(c, exit_code, 1, err);
}

int ruas_child_try_wait(ruas_child *c, int *exit_code, ruas_error **err)
{
	return wait_common(c, exit_code, 0, err);
}

int ruas_child_terminate(ruas_child *c, ruas_error **err)
{
	return ruas_child_signal(c, SIGTERM, err);
}

int ruas_child_signal(ruas_child *c, int sig, ruas_error **err)
{
	int r = 0;
	pthread_mutex_lock(&c->lock);
	if (!c->reaped && kill(c->pid, sig) < 0 && errno != ESRCH)
		r = error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno,
			      "signal %d to pid %d: %s", sig, (int)c->pid,
			      strerror(errno));
	pthread_mutex_unlock(&c->lock);
	return r;
}

void ruas_child_free(ruas_child *c)
{
	if (!c)
		return;
	int code;
	(void)wait_common(c, &code, 0, NULL);
	if (c->files) {
		deny_files_remove(c->files);
		free(c->files);
	}
	pthread_mutex_destroy(&c->lock);
	free(c);
}
