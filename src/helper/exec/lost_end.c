/* SPDX-License-Identifier: ISC */
/* lost_end.c - see lost_end.h. */
#include "lost_end.h"
#include "proc.h"
#include "syslog_send.h"

#include <stdio.h>
#include <syslog.h>

int lost_end_supervisor_alive(const struct payload *p)
{
	return p->supervisor_pid && p->supervisor_start &&
	       process_start_time((pid_t)p->supervisor_pid) == p->supervisor_start;
}

void lost_end_record(const struct payload *p, const struct msg_exit *e, long long started_ms)
{
	if (!p->audit_facility || !p->run_id || !*p->run_id)
		return;
	char exit_s[16] = "-", sig_s[32] = "-", survivors[24] = "-";
	if (e->how == EXIT_HOW_SIGNALED)
		signal_name((int)e->value, sig_s, sizeof sig_s);
	else
		snprintf(exit_s, sizeof exit_s, "%u", e->value);
	if (e->survivors >= 0)
		snprintf(survivors, sizeof survivors, "%ld", e->survivors);
	/* Every value is a token (hex, digits, SIGNAME): nothing here needs quoting. */
	char line[256];
	snprintf(line, sizeof line,
		 "end run=%s exit=%s signal=%s duration_ms=%lld survivors_killed=%s started=%s "
		 "supervisor=lost",
		 p->run_id, exit_s, sig_s, monotonic_ms() - started_ms, survivors,
		 e->started ? "yes" : "no");
	(void)syslog_send(NULL, (int)(p->audit_facility - 1) << 3, LOG_INFO, "ruas", line);
}
