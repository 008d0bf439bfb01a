/* perfpred-rt.h - public interface of libperfpred-rt (docs/runtime-abi.md).
 *
 * The GCC plugin builds matching declarations itself (as GCC trees); this
 * header is for hand-written callers (tests, experiments) and documents the
 * ABI in C.  Any change here is a change of the plugin <-> runtime contract.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_RT_H
#define PERFPRED_RT_H

#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PP_ABI_VERSION 1

/* the link markers (the plugin references one per unit) */
#include "perfpred-link.h"

/* One per instrumented function, in ELF section "__pp_desc", aligned to
 * exactly 8 bytes (a dense array the runtime walks). */
struct pp_fdesc {
    uint32_t version;      /* PP_ABI_VERSION */
    uint32_t nslots;       /* counter slots of this function, slot 0 included */
    const char *text;      /* descriptor text (docs/descriptor-format.md) */
    const char *name;      /* assembler name of the function */
    const char *file;      /* main input file of the translation unit */
};

/* One per global that loop bounds depend on, in ELF section "__pp_gdesc". */
struct pp_gdesc {
    uint32_t version;      /* PP_ABI_VERSION */
    uint32_t size;         /* 1, 2, 4 or 8 bytes */
    uint32_t is_signed;    /* 1 if the C type is signed */
    uint32_t pad;
    const char *name;      /* source name of the global */
    const void *addr;      /* its address */
};

/* Registration of the calling thread's counter block of function d; sets
 * cnt[0] = 1.  Called once per (function, thread), guarded by cnt[0] == 0. */
void __pp_register(const struct pp_fdesc *d, uint64_t *cnt);

/* Value of problem parameter `id` (a `param` line of d's descriptor). */
void __pp_param(const struct pp_fdesc *d, uint32_t id, int64_t value);

/* Loop timing (docs/runtime-abi.md): scr the loop's three scratch slots,
 * slot its two timing counters (ticks, timed entries). */
void __pp_tbegin(uint64_t *scr);
void __pp_tend(uint64_t *scr, uint64_t *slot);

/* Event wrappers: (descriptor, event site id, original arguments...). */
int __pp_w_pthread_create(const struct pp_fdesc *d, uint32_t site, pthread_t *thread,
                          const pthread_attr_t *attr, void *(*start)(void *), void *arg);
int __pp_w_pthread_join(const struct pp_fdesc *d, uint32_t site, pthread_t thread, void **retval);
int __pp_w_pthread_barrier_wait(const struct pp_fdesc *d, uint32_t site, pthread_barrier_t *b);
int __pp_w_pthread_mutex_lock(const struct pp_fdesc *d, uint32_t site, pthread_mutex_t *m);
int __pp_w_pthread_mutex_trylock(const struct pp_fdesc *d, uint32_t site, pthread_mutex_t *m);
int __pp_w_pthread_mutex_unlock(const struct pp_fdesc *d, uint32_t site, pthread_mutex_t *m);
int __pp_w_pthread_cond_wait(const struct pp_fdesc *d, uint32_t site, pthread_cond_t *cv,
                             pthread_mutex_t *m);
int __pp_w_pthread_cond_timedwait(const struct pp_fdesc *d, uint32_t site, pthread_cond_t *cv,
                                  pthread_mutex_t *m, const struct timespec *abstime);
int __pp_w_pthread_cond_signal(const struct pp_fdesc *d, uint32_t site, pthread_cond_t *cv);
int __pp_w_pthread_cond_broadcast(const struct pp_fdesc *d, uint32_t site, pthread_cond_t *cv);
int __pp_w_sem_wait(const struct pp_fdesc *d, uint32_t site, sem_t *s);
int __pp_w_sem_post(const struct pp_fdesc *d, uint32_t site, sem_t *s);

void __pp_w_GOMP_parallel(const struct pp_fdesc *d, uint32_t site, void (*fn)(void *), void *data,
                          unsigned num_threads, unsigned flags);
void __pp_w_GOMP_parallel_loop_static(const struct pp_fdesc *d, uint32_t site, void (*fn)(void *),
                                      void *data, unsigned num_threads, long start, long end,
                                      long incr, long chunk_size, unsigned flags);
void __pp_w_GOMP_parallel_loop_dynamic(const struct pp_fdesc *d, uint32_t site, void (*fn)(void *),
                                       void *data, unsigned num_threads, long start, long end,
                                       long incr, long chunk_size, unsigned flags);
void __pp_w_GOMP_parallel_loop_guided(const struct pp_fdesc *d, uint32_t site, void (*fn)(void *),
                                      void *data, unsigned num_threads, long start, long end,
                                      long incr, long chunk_size, unsigned flags);
void __pp_w_GOMP_parallel_loop_runtime(const struct pp_fdesc *d, uint32_t site, void (*fn)(void *),
                                       void *data, unsigned num_threads, long start, long end,
                                       long incr, unsigned flags);
void __pp_w_GOMP_parallel_loop_nonmonotonic_dynamic(const struct pp_fdesc *d, uint32_t site,
                                                    void (*fn)(void *), void *data,
                                                    unsigned num_threads, long start, long end,
                                                    long incr, long chunk_size, unsigned flags);
void __pp_w_GOMP_parallel_loop_nonmonotonic_guided(const struct pp_fdesc *d, uint32_t site,
                                                   void (*fn)(void *), void *data,
                                                   unsigned num_threads, long start, long end,
                                                   long incr, long chunk_size, unsigned flags);
void __pp_w_GOMP_parallel_loop_nonmonotonic_runtime(const struct pp_fdesc *d, uint32_t site,
                                                    void (*fn)(void *), void *data,
                                                    unsigned num_threads, long start, long end,
                                                    long incr, unsigned flags);
void __pp_w_GOMP_parallel_loop_maybe_nonmonotonic_runtime(const struct pp_fdesc *d, uint32_t site,
                                                          void (*fn)(void *), void *data,
                                                          unsigned num_threads, long start,
                                                          long end, long incr, unsigned flags);
void __pp_w_GOMP_parallel_sections(const struct pp_fdesc *d, uint32_t site, void (*fn)(void *),
                                   void *data, unsigned num_threads, unsigned count,
                                   unsigned flags);
void __pp_w_GOMP_barrier(const struct pp_fdesc *d, uint32_t site);
void __pp_w_GOMP_loop_end(const struct pp_fdesc *d, uint32_t site);
void __pp_w_GOMP_loop_end_nowait(const struct pp_fdesc *d, uint32_t site);
void __pp_w_GOMP_critical_start(const struct pp_fdesc *d, uint32_t site);
void __pp_w_GOMP_critical_end(const struct pp_fdesc *d, uint32_t site);
void __pp_w_GOMP_critical_name_start(const struct pp_fdesc *d, uint32_t site, void **pptr);
void __pp_w_GOMP_critical_name_end(const struct pp_fdesc *d, uint32_t site, void **pptr);
void __pp_w_GOMP_atomic_start(const struct pp_fdesc *d, uint32_t site);
void __pp_w_GOMP_atomic_end(const struct pp_fdesc *d, uint32_t site);
bool __pp_w_GOMP_single_start(const struct pp_fdesc *d, uint32_t site);
void __pp_w_GOMP_sections_end(const struct pp_fdesc *d, uint32_t site);
void __pp_w_GOMP_sections_end_nowait(const struct pp_fdesc *d, uint32_t site);

#ifdef __cplusplus
}
#endif

#endif
