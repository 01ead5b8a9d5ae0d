/* SPDX-License-Identifier: ISC */
/*
 * spawn_stress.c - threads spawning children while other threads signal,
 * terminate, wait on and free them.
 *
 * Built with the library's sources under ThreadSanitizer by `make
 * check-tsan-spawn` (any report fails it), and uses only <ruas.h>, as an
 * embedder would. THREADS threads each spawn SPAWNS children one after the
 * other; around each child, helper threads call ruas_child_signal()
 * (SIGCONT, SIGTERM), ruas_child_terminate(), ruas_child_try_wait(),
 * ruas_child_wait(), ruas_child_term_signal() and poll ruas_child_pidfd()
 * at once, and the owner frees it, some of them while they still run.
 * Afterwards this process has the descriptors it started with, and no
 * process has it as parent: no zombie, no survivor. It is a subreaper, so a
 * grandchild orphaned on the way would be counted as ours.
 *
 * The first round runs a project without run_as_user (the command as this
 * user, no sudo), so it runs anywhere. RUAS_STRESS_CONFIG=FILE adds a
 * second round with project RUAS_STRESS_PROJECT (default "stress") of that
 * file, one with run_as_user on the sudo or the pam backend (as
 * tests/stress/backends.sh runs it, as root, in the sandbox); its command
 * must take a duration in seconds as its last argument, as ["/bin/sleep"]
 * does; a third round runs that project again with every agent's stdin a
 * pty of this process's, so that each spawn gets a pty of its own relayed
 * by the library's thread. A subreaper sees there what a root supervisor in a container (pid
 * 1) would: a helper that sudo left behind. Exit 0 when everything held,
 * 1 otherwise.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ruas.h>

#define THREADS 8
#define SPAWNS 50
#define SIGNALS 20 /* SIGCONTs each signaller sends */
#define TRIES 20   /* try_waits on a child that must still run */
#define LONG "30"  /* seconds: a child that runs until it is ended */
#define MAX_MS 60000 /* for any end */

static const char legacy_conf[] =
	"projects = (\n"
	"  { name = \"stress\"; work_dir = \"/\"; command = [\"/bin/sleep\"]; }\n"
	");\n";

static atomic_int failures;
/*
 * The round on a terminal: every agent's stdin is this pty of the
 * stress's own (nobody types), so each spawn gets a pty that the library
 * relays in a thread; -1 in the other rounds.
 */
static int stress_tty = -1;
/* How the children of a round ended, for the summary line. */
static atomic_int n_exited, n_termed, n_freed;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("spawn_stress: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	atomic_fetch_add(&failures, 1);
}

static void fail_err(const char *what, ruas_error *err)
{
	fail("%s: %s", what, err ? ruas_error_message(err) : "(no message)");
	ruas_error_free(err);
}

/* ------------------------------------------------------------ one child */

/*
 * What happens around one child. SHORT ends by itself; TERM is ended by
 * terminate and SIGTERM from two threads at once; RACE (0 to 90 ms) ends
 * by itself or by a SIGTERM sent after about 20 ms; FREE_RUNNING is freed
 * while it runs (only SIGCONT and try_wait touch it first); FREE_ENDING is
 * freed right after a terminate, while it may be ending, ended or still
 * running.
 */
enum scenario { SHORT, TERM, RACE, FREE_RUNNING, FREE_ENDING, SCENARIOS };

enum role { R_SIGNAL, R_SIGNAL_TERM, R_TERMINATE, R_WAIT, R_TRY, R_POLL, R_TRY_RUNNING };

struct job {
	ruas_child *c;
	enum role role;
	int done;  /* 1: it saw the end, and code is how it ended */
	int code;
	int tsig;  /* ruas_child_term_signal() after its own wait */
};

static void job_end(struct job *j, int code)
{
	j->done = 1;
	j->code = code;
	j->tsig = ruas_child_term_signal(j->c);
}

static void pause_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000};
	nanosleep(&ts, NULL);
}

/* SIGCONTs for about SIGNALS ms, then with term a SIGTERM. */
static void role_signal(struct job *j, int term)
{
	for (int i = 0; i < SIGNALS; i++) {
		ruas_error *err = NULL;
		int sig = term && i == SIGNALS - 1 ? SIGTERM : SIGCONT;
		if (ruas_child_signal(j->c, sig, &err) < 0)
			fail_err("ruas_child_signal", err);
		(void)ruas_child_term_signal(j->c); /* 0 or the signal, whenever asked */
		pause_ms(1);
	}
}

/* try_wait every ms: TRIES times on a child that must still run, else until its end. */
static void role_try(struct job *j, int must_run)
{
	for (int i = 0; i < (must_run ? TRIES : MAX_MS); i++) {
		ruas_error *err = NULL;
		int code = -1;
		int r = ruas_child_try_wait(j->c, &code, &err);
		if (r < 0) {
			fail_err("ruas_child_try_wait", err);
			return;
		}
		if (r == 0) {
			if (must_run)
				fail("try_wait: a child that should still run ended (%d)", code);
			job_end(j, code);
			return;
		}
		pause_ms(1);
	}
	if (!must_run)
		fail("try_wait: the child did not end within %d ms", MAX_MS);
}

static void role_poll(struct job *j)
{
	/* With the library's relay, its thread takes the helper's news too. */
	(void)ruas_child_state(j->c, NULL);
	int fd = ruas_child_pidfd(j->c);
	if (fd < 0)
		return; /* a kernel without pidfd_open */
	struct pollfd pf = {fd, POLLIN, 0};
	int r;
	while ((r = poll(&pf, 1, MAX_MS)) < 0 && errno == EINTR)
		;
	if (r != 1) {
		fail("the pidfd did not become readable (%d)", r);
		return;
	}
	ruas_error *err = NULL;
	int code = -1;
	r = ruas_child_try_wait(j->c, &code, &err);
	if (r < 0)
		fail_err("ruas_child_try_wait after the pidfd", err);
	else if (r == 1)
		fail("the pidfd was readable, but try_wait says it still runs");
	else
		job_end(j, code);
}

static void *job_run(void *arg)
{
	struct job *j = arg;
	ruas_error *err = NULL;
	int code = -1;
	switch (j->role) {
	case R_SIGNAL:
	case R_SIGNAL_TERM:
		role_signal(j, j->role == R_SIGNAL_TERM);
		break;
	case R_TERMINATE:
		if (ruas_child_terminate(j->c, &err) < 0 || ruas_child_signal(j->c, SIGTERM, &err) < 0)
			fail_err("ruas_child_terminate", err);
		break;
	case R_WAIT:
		if (ruas_child_wait(j->c, &code, &err) < 0)
			fail_err("ruas_child_wait", err);
		else
			job_end(j, code);
		break;
	case R_TRY:
		role_try(j, 0);
		break;
	case R_POLL:
		role_poll(j);
		break;
	case R_TRY_RUNNING:
		role_signal(j, 0);
		role_try(j, 1);
		break;
	}
	return NULL;
}

/* The helper threads of each scenario, besides the owner. */
static size_t roles_of(enum scenario s, enum role *r)
{
	static const enum role roles[SCENARIOS][4] = {
		[SHORT] = {R_SIGNAL, R_WAIT, R_TRY, R_POLL},
		[TERM] = {R_TERMINATE, R_SIGNAL_TERM, R_WAIT, R_POLL},
		[RACE] = {R_SIGNAL_TERM, R_TRY, R_POLL, R_WAIT},
		[FREE_RUNNING] = {R_TRY_RUNNING, R_TRY_RUNNING},
		[FREE_ENDING] = {R_TERMINATE, R_SIGNAL_TERM},
	};
	size_t n = (s == FREE_RUNNING || s == FREE_ENDING) ? 2 : 4;
	memcpy(r, roles[s], n * sizeof *r);
	return n;
}

/* How a child of scenario s may have ended: exit 0, or SIGTERM. */
static int end_ok(enum scenario s, int code, int tsig)
{
	if (tsig != 0 && code != 128 + tsig)
		return 0;
	if (s == SHORT)
		return code == 0 && tsig == 0;
	if (s == TERM)
		return code == 128 + SIGTERM && tsig == SIGTERM;
	return (code == 0 && tsig == 0) || (code == 128 + SIGTERM && tsig == SIGTERM);
}

/* Every thread that saw the end saw the same end, and an allowed one. */
static void check_ends(enum scenario s, const struct job *jobs, size_t n, int code, int tsig)
{
	if (!end_ok(s, code, tsig))
		fail("scenario %d: the owner's wait gave %d (signal %d)", (int)s, code, tsig);
	for (size_t i = 0; i < n; i++)
		if (jobs[i].done && (jobs[i].code != code || jobs[i].tsig != tsig))
			fail("scenario %d: role %d saw %d (signal %d), the owner %d (signal %d)",
			     (int)s, (int)jobs[i].role, jobs[i].code, jobs[i].tsig, code, tsig);
}

static void one_child(const ruas_config *cfg, const char *project, enum scenario s,
		      unsigned int *seed)
{
	char dur[16];
	int ends_soon = s == SHORT || s == RACE;
	if (ends_soon) {
		*seed = *seed * 1103515245U + 12345U; /* the thread's own sequence */
		snprintf(dur, sizeof dur, "0.0%u", (*seed >> 16) % 10);
	}
	const char *args[] = {ends_soon ? dur : LONG, NULL};
	ruas_child *c = NULL;
	ruas_error *err = NULL;
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.stdin_fd = stress_tty; /* -1: this process's stdin, /dev/null */
	if (ruas_spawn(&c, cfg, project, args, &o, &err) < 0) {
		fail_err("ruas_spawn", err);
		return;
	}
	struct job jobs[4] = {{0}};
	pthread_t tids[4];
	enum role roles[4];
	size_t n = roles_of(s, roles), started = 0;
	for (size_t i = 0; i < n; i++) {
		jobs[i] = (struct job){.c = c, .role = roles[i]};
		if (pthread_create(&tids[i], NULL, job_run, &jobs[i]) != 0)
			fail("pthread_create failed");
		else
			started++;
	}
	int code = -1;
	if (s != FREE_RUNNING && s != FREE_ENDING) {
		if (ruas_child_wait(c, &code, &err) < 0)
			fail_err("ruas_child_wait (owner)", err);
	}
	for (size_t i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	if (s != FREE_RUNNING && s != FREE_ENDING) {
		check_ends(s, jobs, started, code, ruas_child_term_signal(c));
		atomic_fetch_add(code == 0 ? &n_exited : &n_termed, 1);
	} else {
		atomic_fetch_add(&n_freed, 1);
	}
	ruas_child_free(c);
}

/* ------------------------------------------------------------ threads */

struct worker {
	const ruas_config *cfg;
	const char *project;
	int spawns;
	unsigned int seed;
	int index;
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	for (int i = 0; i < w->spawns; i++)
		one_child(w->cfg, w->project, (enum scenario)((i + w->index) % SCENARIOS),
			  &w->seed);
	return NULL;
}

static void run_round(const ruas_config *cfg, const char *project, int spawns)
{
	pthread_t tids[THREADS];
	struct worker w[THREADS];
	int started = 0;
	for (int i = 0; i < THREADS; i++) {
		w[i] = (struct worker){cfg, project, spawns, (unsigned int)(i * 7919 + 1), i};
		if (pthread_create(&tids[i], NULL, worker_run, &w[i]) != 0)
			fail("pthread_create failed");
		else
			started++;
	}
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
}

/* ------------------------------------------------------------ the ends */

/* How many entries of dir (not . and ..) fn counts; -1 when it cannot be read. */
static int count_entries(const char *dir, int (*fn)(const char *name))
{
	DIR *d = opendir(dir);
	if (!d) {
		fail("cannot list %s: %s", dir, strerror(errno));
		return -1;
	}
	int n = 0;
	const struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && fn(e->d_name))
			n++;
	closedir(d);
	return n;
}

static int any(const char *name)
{
	(void)name;
	return 1;
}

static int count_fds(void)
{
	int n = count_entries("/proc/self/fd", any);
	return n < 0 ? n : n - 1; /* the directory's own */
}

/* Whether process `name` has this one as parent, zombie or not: said as it is counted. */
static int is_ours(const char *name)
{
	if (name[0] < '0' || name[0] > '9')
		return 0;
	char path[300], line[512];
	snprintf(path, sizeof path, "/proc/%s/stat", name);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0; /* gone meanwhile */
	size_t len = fread(line, 1, sizeof line - 1, f);
	fclose(f);
	line[len] = '\0';
	/* "PID (COMM) STATE PPID ...", COMM as the process named itself. */
	const char *rp = strrchr(line, ')');
	if (!rp || rp[1] != ' ' || !rp[2] || rp[3] != ' ')
		return 0;
	char state = rp[2];
	if (strtol(rp + 4, NULL, 10) != (long)getpid())
		return 0;
	fail("%s left: %.*s, state %c", state == 'Z' ? "a zombie" : "a survivor",
	     (int)(rp + 1 - line), line, state);
	return 1;
}

static void check_aftermath(int fds_before, const char *round)
{
	int fds = count_fds();
	if (fds != fds_before)
		fail("%s: %d descriptors open, %d at start", round, fds, fds_before);
	count_entries("/proc", is_ours);
	int st;
	pid_t w = waitpid(-1, &st, WNOHANG);
	if (w != -1 || errno != ECHILD)
		fail("%s: waitpid(-1) gave %d (%s): a child is left", round, (int)w,
		     w < 0 ? strerror(errno) : "not ECHILD");
}

static int round_with(ruas_config *cfg, const char *project, int spawns, const char *name)
{
	int fds = count_fds();
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run_round(cfg, project, spawns);
	ruas_config_free(cfg);
	check_aftermath(fds, name);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("spawn_stress: %s: %d threads x %d spawns in %.1f s (%d exited, %d ended by "
	       "SIGTERM, %d freed unwaited), %d failure(s)\n", name, THREADS, spawns, s,
	       atomic_exchange(&n_exited, 0), atomic_exchange(&n_termed, 0),
	       atomic_exchange(&n_freed, 0), atomic_load(&failures));
	return atomic_load(&failures) == 0;
}

/*
 * The same project again, its agents on a terminal: the pty, the
 * library's relay thread and its terminal modes, against the same
 * signalling, waiting and freeing threads.
 */
static int round_on_terminal(const char *file, const char *project, const char *name)
{
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	int term = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (term < 0 || grantpt(term) < 0 || unlockpt(term) < 0 ||
	    (stress_tty = open(ptsname(term), O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
		fail("cannot open a pty: %s", strerror(errno));
		return 0;
	}
	int ok = 0;
	char on[240];
	snprintf(on, sizeof on, "%s, on a terminal", name);
	if (ruas_config_load(&cfg, file, NULL, &err) < 0)
		fail_err("ruas_config_load", err);
	else
		ok = round_with(cfg, project, SPAWNS / 5, on);
	close(stress_tty);
	close(term);
	stress_tty = -1;
	return ok;
}

/* The round of RUAS_STRESS_CONFIG's project, when it names a file. */
static int round_of_file(const char *file)
{
	const char *project = getenv("RUAS_STRESS_PROJECT");
	if (!project || !*project)
		project = "stress";
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	if (ruas_config_load(&cfg, file, NULL, &err) < 0) {
		fail_err("ruas_config_load", err);
		return 0;
	}
	const ruas_project *p = ruas_config_project_find(cfg, project);
	if (!p) {
		fail("no project \"%s\" in %s", project, file);
		ruas_config_free(cfg);
		return 0;
	}
	char name[200];
	snprintf(name, sizeof name, "%s (as %s, %s backend)", project,
		 ruas_project_run_as_user(p) ? ruas_project_run_as_user(p) : "this user",
		 ruas_project_backend(p));
	if (!round_with(cfg, project, SPAWNS, name))
		return 0;
	return round_on_terminal(file, project, name);
}

int main(void)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		fail("PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	if (ruas_config_load_buffer(&cfg, legacy_conf, sizeof legacy_conf - 1, "stress.conf", NULL,
				    &err) < 0) {
		fail_err("ruas_config_load_buffer", err);
		return 1;
	}
	int ok = round_with(cfg, "stress", SPAWNS, "legacy (as this user)");
	const char *file = getenv("RUAS_STRESS_CONFIG");
	if (ok && file && *file)
		ok = round_of_file(file);
	return ok ? 0 : 1;
}
