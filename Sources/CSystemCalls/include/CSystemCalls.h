#ifndef TILTMAZE_CSYSTEMCALLS_H
#define TILTMAZE_CSYSTEMCALLS_H
/* Linux calls Glibc's Swift module does not export (they need _GNU_SOURCE or
 * <sys/prctl.h>). One wrapper each, nothing else. */

/* pthread_setname_np(pthread_self(), name); returns 0 or an errno value. */
int csc_set_thread_name(const char *name);

/* prctl(PR_SET_TIMERSLACK, ns); returns 0 or -1 with errno set. */
int csc_set_timer_slack(unsigned long nanoseconds);

#endif
