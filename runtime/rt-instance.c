/* rt-instance.c - one runtime per process, and all of it.
 *
 * A program built with perfpred-gcc may hold two copies of the runtime: the
 * static one linked into the executable, which exports its entry points,
 * and libperfpred-rt.so.1, which an instrumented shared library of the
 * program needs (so that it also works under an executable without one).
 * Instrumented code binds to the first definition in the process, the
 * executable's; the shared copy would sit idle and print "no instrumented
 * code ran" at exit.  So the shared copy looks, when it initialises,
 * whether __pp_register resolves to another object, and if so stays
 * disabled (silent, no record).  The copy in the archive never defers: it
 * belongs to the executable (docs/wrapper.md, "Shared libraries").
 *
 * This object also lists every entry point of the runtime except the MPI
 * wrappers (which need libmpi): pp_thread_init uses it, so an executable
 * that links the static archive for its own instrumented code gets all of
 * the runtime, and an instrumented shared library loaded later (dlopen)
 * finds every entry point it calls in the executable's runtime.
 *
 * And it keeps instrumented shared libraries loaded: a library that
 * registers a function stays mapped until the process ends (dlopen with
 * RTLD_NODELETE), because the record, written at exit, reads its
 * descriptors and counters; a dlclose() before exit would unmap them (the
 * exit handler crashed on a plugin the program had closed).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>

#include "rt-internal.h"

/* No reference to dlopen by name: in a -static link it brings libc.a's
 * link-time warning "Using 'dlopen' in statically linked applications";
 * dlsym finds it in a dynamic process, and nothing in a static one, which
 * has no shared object to pin anyway. */
typedef void *(*pp_dlopen_fn)(const char *, int);

typedef void (*pp_any_fn)(void);

/* The link marker the plugin references strongly (perfpred-rt.h) */
PP_DEFINE_LINK_MARKER(PP_LINK_MARKER_RUNTIME);

#define E(f) (pp_any_fn)(f)
__attribute__((used)) const pp_any_fn pp_rt_entry_points[] = {
    E(__pp_register), E(__pp_param), E(__pp_tbegin), E(__pp_tend),
    E(__pp_w_pthread_create), E(__pp_w_pthread_join), E(__pp_w_pthread_barrier_wait),
    E(__pp_w_pthread_mutex_lock), E(__pp_w_pthread_mutex_trylock),
    E(__pp_w_pthread_mutex_unlock), E(__pp_w_pthread_cond_wait), E(__pp_w_pthread_cond_timedwait),
    E(__pp_w_pthread_cond_signal), E(__pp_w_pthread_cond_broadcast), E(__pp_w_sem_wait),
    E(__pp_w_sem_post),
    E(__pp_w_GOMP_parallel), E(__pp_w_GOMP_parallel_loop_static),
    E(__pp_w_GOMP_parallel_loop_dynamic), E(__pp_w_GOMP_parallel_loop_guided),
    E(__pp_w_GOMP_parallel_loop_runtime), E(__pp_w_GOMP_parallel_loop_nonmonotonic_dynamic),
    E(__pp_w_GOMP_parallel_loop_nonmonotonic_guided),
    E(__pp_w_GOMP_parallel_loop_nonmonotonic_runtime),
    E(__pp_w_GOMP_parallel_loop_maybe_nonmonotonic_runtime), E(__pp_w_GOMP_parallel_sections),
    E(__pp_w_GOMP_barrier), E(__pp_w_GOMP_loop_end), E(__pp_w_GOMP_loop_end_nowait),
    E(__pp_w_GOMP_critical_start), E(__pp_w_GOMP_critical_end),
    E(__pp_w_GOMP_critical_name_start), E(__pp_w_GOMP_critical_name_end),
    E(__pp_w_GOMP_atomic_start), E(__pp_w_GOMP_atomic_end), E(__pp_w_GOMP_single_start),
    E(__pp_w_GOMP_sections_end), E(__pp_w_GOMP_sections_end_nowait),
};
#undef E

int pp_instance_defer(void)
{
#ifdef PP_RT_SHARED_OBJECT
    /* RTLD_DEFAULT searches the global scope in load order: the executable
     * first.  Our own address (hidden symbol) names our object. */
    void *p = dlsym(RTLD_DEFAULT, "__pp_register");
    Dl_info other, me;
    if (!p || !dladdr(p, &other) || !dladdr((void *)(uintptr_t)&pp_instance_defer, &me))
        return 0;
    return other.dli_fbase != me.dli_fbase;
#else
    return 0;
#endif
}

void pp_instance_pin(const struct pp_fdesc *d)
{
    /* the object most recently pinned: the usual case costs one dladdr */
    static _Atomic(void *) last;
    Dl_info i, me;
    if (!dladdr(d, &i) || !i.dli_fname || !i.dli_fname[0] ||
        i.dli_fbase == atomic_load_explicit(&last, memory_order_relaxed))
        return;
    /* the object the runtime is in (the executable, for the archive) goes
     * away only with the process */
    if (dladdr((void *)(uintptr_t)&pp_instance_pin, &me) && me.dli_fbase == i.dli_fbase)
        return;
    pp_dlopen_fn open = (pp_dlopen_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "dlopen");
    /* RTLD_NOLOAD: only the object that is already there; the reference
     * it takes is never dropped, RTLD_NODELETE says so for dlclose too */
    if (open && open(i.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE))
        atomic_store_explicit(&last, i.dli_fbase, memory_order_relaxed);
}
