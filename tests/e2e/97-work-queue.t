#!/usr/bin/perl
# 97-work-queue.t - the work-queue pattern of pthreads code: threads take
# items from a shared counter, under a mutex reached through the start
# argument (mutexq) or by an atomic fetch-and-add (atomicq), until it runs
# out.  The `while` over the queue has a data-dependent count; its
# iterations are claimed from shared state, so the model fits the team's
# total per size (not each thread's share at the recorded P) and deals it
# over the P threads like a dynamic schedule (docs/model.md, "Work
# queues").  The mutex has no expression the model can evaluate; the run
# shows one address for both threads, so it is one lock (model-lockobj.c),
# not a guessed one per thread.
#
# Items cost the same (20000 iterations of the inner loop), so the answer
# is hand-computable: recorded at n = 200 and 400 with P = 2, predicted at
# n = 1600: the queue loop runs 1600 times in all at every P, thread k of
# P gets floor(1600/P) + (k < 1600 mod P) items (P = 3: 534, 533, 533),
# which the per-thread time of the inner loop shows.  With one record the
# total is kept at every size: predict warns.  A time-step loop that takes
# a shared mutex in a hand-made barrier (stepbar) is not a queue.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use lib "$FindBin::Bin/lib";
use PPCheck qw(run_in json_in);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $B = $ENV{PERFPRED_BUILD} || 'build';
for my $f ("$B/perfpred.so", "$B/libperfpred-rt.a", "$B/perfpred") {
    plan skip_all => "$f is not built (make all)" unless -e $f;
}
my $TMP = tempdir('pp-workq-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $SAN = ($ENV{SANITIZE} // '') eq '1' ? ' -fsanitize=address,undefined -fno-sanitize-recover=undefined' : '';
delete @ENV{qw(PERFPRED_RECORD PERFPRED_DISABLE)};
$ENV{ASAN_OPTIONS} = 'detect_leaks=0' if $SAN;
my $PP = "$B/perfpred";

my %src;
$src{mutexq} = <<'C';
/* items of equal cost taken one at a time from a counter under a mutex */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct queue {
    pthread_mutex_t mu;
    int next, nitems;
    double *out;
};

static int take(struct queue *q)
{
    int i = -1;
    pthread_mutex_lock(&q->mu);
    if (q->next < q->nitems)
        i = q->next++;
    pthread_mutex_unlock(&q->mu);
    return i;
}

static void *worker(void *arg)
{
    struct queue *q = arg;
    int i;
    while ((i = take(q)) >= 0) {
        double s = 0;
        for (int j = 0; j < 20000; j++)
            s += (double)(i ^ j) * 1e-9;
        q->out[i] = s;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int n = atoi(argv[1]), nthreads = atoi(argv[2]);
    struct queue q = {.next = 0, .nitems = n};
    pthread_mutex_init(&q.mu, NULL);
    q.out = calloc((size_t)n, sizeof *q.out);
    pthread_t *th = malloc(sizeof *th * (size_t)nthreads);
    for (int t = 0; t < nthreads; t++)
        pthread_create(&th[t], NULL, worker, &q);
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += q.out[i];
    printf("%.6f\n", sum);
    free(q.out);
    free(th);
    return 0;
}
C
$src{atomicq} = <<'C';
/* items of equal cost claimed by an atomic fetch-and-add on a shared counter */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct job {
    int next, nitems;
    double *out;
};

static void *worker(void *arg)
{
    struct job *jb = arg;
    int i;
    while ((i = __atomic_fetch_add(&jb->next, 1, __ATOMIC_RELAXED)) < jb->nitems) {
        double s = 0;
        for (int j = 0; j < 20000; j++)
            s += (double)(i ^ j) * 1e-9;
        jb->out[i] = s;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int n = atoi(argv[1]), nthreads = atoi(argv[2]);
    struct job jb = {.next = 0, .nitems = n};
    jb.out = calloc((size_t)n, sizeof *jb.out);
    pthread_t *th = malloc(sizeof *th * (size_t)nthreads);
    for (int t = 0; t < nthreads; t++)
        pthread_create(&th[t], NULL, worker, &jb);
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += jb.out[i];
    printf("%.6f\n", sum);
    free(jb.out);
    free(th);
    return 0;
}
C

$src{stepbar} = <<'C';
/* not a queue: a time-step loop whose count the threads read from shared
 * state, with a hand-made barrier (a mutex, a count, a generation and a
 * condition variable) that takes the shared mutex every step */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct bar {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int count, waiting;
    unsigned long gen;
};

struct shared {
    int n, steps;
    double *a;
    struct bar b;
};

struct part {
    struct shared *sh;
    int lo, hi;
};

static void bar_wait(struct bar *b)
{
    pthread_mutex_lock(&b->mu);
    unsigned long g = b->gen;
    if (++b->waiting == b->count) {
        b->waiting = 0;
        b->gen++;
        pthread_cond_broadcast(&b->cv);
    } else {
        while (g == b->gen)
            pthread_cond_wait(&b->cv, &b->mu);
    }
    pthread_mutex_unlock(&b->mu);
}

static void *worker(void *arg)
{
    struct part *pt = arg;
    struct shared *sh = pt->sh;
    for (int s = 0; s < sh->steps; s++) {
        for (int i = pt->lo; i < pt->hi; i++)
            sh->a[i] = sh->a[i] * 0.999 + 1e-3 * (double)(s & 7);
        bar_wait(&sh->b);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int n = atoi(argv[1]), nthreads = atoi(argv[2]);
    struct shared sh = {.n = n, .steps = 50};
    sh.a = calloc((size_t)n, sizeof *sh.a);
    pthread_mutex_init(&sh.b.mu, NULL);
    pthread_cond_init(&sh.b.cv, NULL);
    sh.b.count = nthreads;
    struct part *pt = malloc(sizeof *pt * (size_t)nthreads);
    pthread_t *th = malloc(sizeof *th * (size_t)nthreads);
    for (int t = 0; t < nthreads; t++) {
        pt[t] = (struct part){&sh, n * t / nthreads, n * (t + 1) / nthreads};
        pthread_create(&th[t], NULL, worker, &pt[t]);
    }
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += sh.a[i];
    printf("%.6f\n", sum);
    free(sh.a);
    free(pt);
    free(th);
    return 0;
}
C

# A time-step loop around a hand-made barrier takes the shared mutex every
# step but claims nothing: every thread runs all 50 steps at every P (a
# queue's dealing gave each of P threads 50/P of them).
{
    open my $fh, '>', "$TMP/stepbar.c" or die;
    print $fh $src{stepbar};
    close $fh;
    my ($rc, $out, $err) = run_in($TMP, "gcc -O2$SAN -pthread -fplugin=$B/perfpred.so $TMP/stepbar.c "
                                        . "-o $TMP/stepbar -L$B -l:libperfpred-rt.a");
    is($rc, 0, "stepbar: instrumented build") or diag($err);
    for my $n (20000, 40000) {
        ($rc, $out, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/stepbar-$n.ppr $TMP/stepbar $n 2");
        is($rc, 0, "stepbar $n 2: runs") or diag($err);
    }
    my $recs = "$TMP/stepbar-20000.ppr $TMP/stepbar-40000.ppr";
    ($rc, $out, $err) = run_in($TMP, "$PP show $recs");
    unlike($out, qr/a work queue/, "stepbar: the time-step loop is not a work queue") or diag($out);
    for my $P (1, 2, 4) {
        my $j = json_in($TMP, "$PP show $recs --set n=160000 --P $P --format json", "stepbar: show at P=$P");
        my %pred = map { $_->{id} => $_->{predicted} } @{ $j->{loops} || [] };
        is($pred{'worker:L0'}, 50 * $P, "stepbar P=$P: every thread runs the 50 steps");
        is($pred{'worker:L1'}, 50 * 160000, "stepbar P=$P: the rows 50 x 160000 times in all");
    }
}

for my $p (qw(mutexq atomicq)) {
    open my $fh, '>', "$TMP/$p.c" or die;
    print $fh $src{$p};
    close $fh;
    my ($rc, $out, $err) = run_in($TMP, "gcc -O2$SAN -pthread -fplugin=$B/perfpred.so $TMP/$p.c -o $TMP/$p "
                                        . "-L$B -l:libperfpred-rt.a");
    is($rc, 0, "$p: instrumented build") or diag($err);
    for my $n (200, 400) {
        ($rc, $out, $err) = run_in($TMP, "env PERFPRED_RECORD=$TMP/$p-$n.ppr $TMP/$p $n 2");
        is($rc, 0, "$p $n 2: runs") or diag($err);
    }
    my $recs = "$TMP/$p-200.ppr $TMP/$p-400.ppr";

    # the model: the queue loop is a work queue fitted as the team's total
    ($rc, $out, $err) = run_in($TMP, "$PP show $recs");
    is($rc, 0, "$p: show") or diag($err);
    like($out, qr/^  worker:L0 .* fitted .*\b1\*n\^1\s*$/m, "$p: the queue loop's team total is n per team entry")
        or diag($out);
    like($out, qr/a work queue \(the team's total/, "$p: show's note says it is a work queue") or diag($out);
    unlike($err, qr/identity is\s+guessed/, "$p: no lock's identity is guessed (the run shows one mutex)")
        or diag($err);

    for my $P (1, 2, 3, 4) {
        my $j = json_in($TMP, "$PP show $recs --set n=1600 --P $P --format json", "$p: show at n=1600 P=$P");
        my %pred = map { $_->{id} => $_->{predicted} } @{ $j->{loops} || [] };
        is($pred{'worker:L0'}, 1600, "$p P=$P: the queue loop runs 1600 times in all");
        is($pred{'worker:L1'}, 32000000, "$p P=$P: the item loop 1600 x 20000 times in all");

        # each thread's share: floor(1600/P) + (k < 1600 mod P), seen in
        # the per-thread computation of the item loop (items cost the same)
        $j = json_in($TMP, "$PP predict $recs --set n=1600 --P $P --by loop --threads --format json",
                     "$p: predict --by loop at P=$P");
        my ($site) = grep { $_->{site} eq 'worker:L1' } @{ $j->{breakdown}{machines}{real}{sites} || [] };
        my @c = @{ $site ? $site->{per_thread}{computation} : [] };
        shift @c;       # main
        my $sum = 0;
        $sum += $_ for @c;
        my @items = map { $sum > 0 ? int($_ / $sum * 1600 + 0.5) : -1 } @c;
        my @hand = map { int(1600 / $P) + ($_ < 1600 % $P ? 1 : 0) } 0 .. $P - 1;
        is_deeply(\@items, \@hand, "$p P=$P: items per thread " . join(',', @hand)) or diag(join(',', @c));
    }

    # one record: the total is kept at every size, loudly
    ($rc, $out, $err) = run_in($TMP, "$PP predict $TMP/$p-200.ppr --set n=1600 --P 2");
    is($rc, 0, "$p: predict from one record");
    like($err, qr/work queue's total is kept at 200 per team entry at every size/,
         "$p: one record: predict warns that the queue's total stays constant") or diag($err);
}

done_testing();
