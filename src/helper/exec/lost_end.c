/* lost_end.c - see lost_end.h. */
#include "lost_end.h"
#include "proc.h"
#include "syslog_send.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <syslog.h>

void lost_end_record(const struct payload *p, const struct reaper_options *ro)
{
	if (!p->audit_facility || !p->run_id || !*p->run_id || ro->status == -1)
		return;
	char exit_s[16] = "-", sig_s[32] = "-", survivors[24] = "-";
	if (WIFSIGNALED(ro->status)) {
		signal_name(WTERMSIG(ro->status), sig_s, sizeof sig_s);
	} else {
		snprintf(exit_s, sizeof exit_s, "%d", WEXITSTATUS(ro->status));
	}
	if (ro->survivors >= 0)
		snprintf(survivors, sizeof survivors, "%ld", ro->survivors);
	/* Every value is a token (hex, digits, SIGNAME): nothing here needs quoting. */
	char line[256];
	snprintf(line, sizeof line,
		 "end run=%s exit=%s signal=%s duration_ms=%lld survivors_killed=%s "
		 "supervisor=lost",
		 p->run_id, exit_s, sig_s, monotonic_ms() - ro->started_ms, survivors);
	(void)syslog_send(NULL, (int)(p->audit_facility - 1) << 3, LOG_INFO, "ruas", line);
}
