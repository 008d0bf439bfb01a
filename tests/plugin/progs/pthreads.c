/* pthread create/join/barrier/mutex.  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NT 3
static pthread_barrier_t bar;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long total;
static int n_items = 300;

static void *worker (void *arg)
{
  long id = (long) arg;
  long s = 0;
  int chunk = n_items / NT;
  for (int i = id * chunk; i < (id + 1) * chunk; i++)   /* L:worker */
    s += i;
  pthread_barrier_wait (&bar);
  pthread_mutex_lock (&mu);
  total += s;
  pthread_mutex_unlock (&mu);
  return NULL;
}

int main (void)
{
  pthread_t t[NT];
  pthread_barrier_init (&bar, NULL, NT);
  for (long i = 0; i < NT; i++)                         /* L:create */
    pthread_create (&t[i], NULL, worker, (void *) i);
  for (int i = 0; i < NT; i++)                          /* L:join */
    pthread_join (t[i], NULL);
  printf ("%ld\n", total);
  return 0;
}
