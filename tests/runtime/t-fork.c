/* t-fork.c - fork() in an instrumented program: only the parent writes.
 *
 * The child locks and unlocks a mutex through the wrappers (the registry
 * lock must not be inherited held) and exits with status 7; the parent
 * prints its own pid and the child's status.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pp-emul.h"

PP_FDESC(d_main, 3, "main",
         "func name=main file=t-fork.c line=20 kind=normal nslots=3 ops=(0 0 0 0 0 1)\n"
         "event id=0 loop=- pos=1 line=25 slot=1 kind=lock obj=(addr m) callee=pthread_mutex_lock\n"
         "event id=1 loop=- pos=2 line=26 slot=2 kind=unlock obj=(addr m) callee=pthread_mutex_unlock\n"
         "end\n");
static __thread uint64_t c_main[3];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    PP_ENTER(d_main, c_main);
    pid_t pid = fork();
    if (pid == 0) {
        c_main[1]++;
        __pp_w_pthread_mutex_lock(&d_main, 0, &m);
        c_main[2]++;
        __pp_w_pthread_mutex_unlock(&d_main, 1, &m);
        exit(7);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    printf("parent=%ld child_status=%d\n", (long)getpid(), WEXITSTATUS(st));
    return 0;
}
