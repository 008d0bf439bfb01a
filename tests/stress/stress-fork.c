/* stress-fork.c - fork() in a recorded program (tests/e2e/22-stress.t).
 *
 *   stress-fork run N REC2     threads run loops; then a child runs an
 *                              instrumented loop and a thread of its own,
 *                              and exits 7; a second child execs this
 *                              program ("child N") with PERFPRED_RECORD=REC2
 *   stress-fork child N        the exec'd program: one loop, exits 0
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long n;

static void *work(void *p)
{
    long s = 0;
    for (long i = 0; i < n; i++)   /* L:work */
        s += i & 7;
    *(long *)p = s;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    n = atol(argv[2]);
    if (!strcmp(argv[1], "child")) {
        long s = 0;
        work(&s);
        printf("exec'd child %ld\n", s);
        return 0;
    }
    if (argc < 4)
        return 2;
    pthread_t th[4];
    long r[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, work, &r[i]);
    pid_t c = fork();         /* while the threads run */
    if (c == 0) {
        long s = 0, s2 = 0;
        work(&s);
        pthread_t t2;
        pthread_create(&t2, NULL, work, &s2);
        pthread_join(t2, NULL);
        exit(s == s2 ? 7 : 1);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    int st1 = 0, st2 = 0;
    waitpid(c, &st1, 0);
    pid_t e = fork();
    if (e == 0) {
        setenv("PERFPRED_RECORD", argv[3], 1);
        execl("/proc/self/exe", argv[0], "child", argv[2], (char *)NULL);
        _exit(127);
    }
    waitpid(e, &st2, 0);
    printf("sums %ld %ld %ld %ld child %d exec %d\n", r[0], r[1], r[2], r[3],
           WIFEXITED(st1) ? WEXITSTATUS(st1) : -1, WIFEXITED(st2) ? WEXITSTATUS(st2) : -1);
    return 0;
}
