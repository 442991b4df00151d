/*
 * ThreadSanitizer builds only (-fsanitize=thread): GLib's GMutex and
 * GCond are futex-based inside an uninstrumented libglib, so TSan does
 * not see eng_lock order anything and reports every access it guards.
 * These wrappers call GLib's own functions and tell TSan about the
 * acquire and release, so that only real races are left.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"

#ifdef __SANITIZE_THREAD__
#include <dlfcn.h>

void __tsan_acquire(void *addr);
void __tsan_release(void *addr);

typedef void (*MutexFn)(GMutex *);
typedef gboolean (*TryFn)(GMutex *);
typedef void (*WaitFn)(GCond *, GMutex *);
typedef gboolean (*WaitUntilFn)(GCond *, GMutex *, gint64);

static MutexFn real_g_mutex_lock, real_g_mutex_unlock;
static TryFn real_g_mutex_trylock;
static WaitFn real_g_cond_wait;
static WaitUntilFn real_g_cond_wait_until;

/* GLib's own functions, found before any thread starts */
static void __attribute__((constructor)) tsan_glib_init(void)
{
    real_g_mutex_lock = (MutexFn)dlsym(RTLD_NEXT, "g_mutex_lock");
    real_g_mutex_unlock = (MutexFn)dlsym(RTLD_NEXT, "g_mutex_unlock");
    real_g_mutex_trylock = (TryFn)dlsym(RTLD_NEXT, "g_mutex_trylock");
    real_g_cond_wait = (WaitFn)dlsym(RTLD_NEXT, "g_cond_wait");
    real_g_cond_wait_until = (WaitUntilFn)dlsym(RTLD_NEXT,
                                                "g_cond_wait_until");
}

void g_mutex_lock(GMutex *m)
{
    real_g_mutex_lock(m);
    __tsan_acquire(m);
}

gboolean g_mutex_trylock(GMutex *m)
{
    if (!real_g_mutex_trylock(m)) {
        return FALSE;
    }
    __tsan_acquire(m);
    return TRUE;
}

void g_mutex_unlock(GMutex *m)
{
    __tsan_release(m);
    real_g_mutex_unlock(m);
}

void g_cond_wait(GCond *c, GMutex *m)
{
    __tsan_release(m);
    real_g_cond_wait(c, m);
    __tsan_acquire(m);
}

gboolean g_cond_wait_until(GCond *c, GMutex *m, gint64 end_time)
{
    gboolean r;

    __tsan_release(m);
    r = real_g_cond_wait_until(c, m, end_time);
    __tsan_acquire(m);
    return r;
}
#endif
