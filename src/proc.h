/* proc.h - facts about processes from /proc. */
#ifndef RUAS_PROC_H
#define RUAS_PROC_H

#include <sys/types.h>

/*
 * Field 22 of /proc/PID/stat (start time in clock ticks since boot); with
 * the pid it names one process for good, even after the pid is recycled.
 * 0 when it cannot be read.
 */
unsigned long long process_start_time(pid_t pid);

/* CLOCK_MONOTONIC in milliseconds, for deadlines. */
long long monotonic_ms(void);

#endif
