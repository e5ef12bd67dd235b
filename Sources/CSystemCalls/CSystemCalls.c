#define _GNU_SOURCE
#include <pthread.h>
#include <sys/prctl.h>
#include "CSystemCalls.h"

int csc_set_thread_name(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}

int csc_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}
