/*
 * A pool of host threads for ordered-retire jobs (include/gemu/workpool.h).
 *
 * One FIFO of queued jobs under the pool's mutex; a worker takes the
 * oldest, runs it unlocked, marks it done and broadcasts.  A waiter whose
 * job is still queued takes it off the queue and runs it itself, and one
 * whose job is running runs the oldest queued jobs meanwhile, so a
 * waiter never sleeps while there is work nobody has started.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/workpool.h"

enum {
    JOB_IDLE,
    JOB_QUEUED,
    JOB_RUNNING,
    JOB_DONE,
};

struct WorkPool {
    GMutex lock;
    GCond work;                 /* a job was queued, or quit */
    GCond done;                 /* a job is done */
    WorkJob *head, *tail;
    bool quit;
    unsigned idle;              /* workers waiting for work */
    unsigned waiting;           /* waiters sleeping on done */
    unsigned nthreads;
    GThread **threads;
};

typedef struct WorkerArg {
    WorkPool *p;
    unsigned executor;
} WorkerArg;

static void unlink_job(WorkPool *p, WorkJob *job)
{
    WorkJob **pp = &p->head, *prev = NULL;

    while (*pp && *pp != job) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (*pp) {
        *pp = job->next;
        if (p->tail == job) {
            p->tail = prev;
        }
    }
    job->next = NULL;
}

/*
 * @job finished; p->lock held. A broadcast is a futex call even with no
 * sleeper (~16% of g84-cube-bl's futex calls), so only when one sleeps.
 */
static void job_done(WorkPool *p, WorkJob *job)
{
    /* release: workpool_poll reads it unlocked, then the job's results */
    __atomic_store_n(&job->state, JOB_DONE, __ATOMIC_RELEASE);
    if (p->waiting) {
        g_cond_broadcast(&p->done);
    }
}

static gpointer worker(gpointer opaque)
{
    WorkerArg *a = opaque;
    WorkPool *p = a->p;
    unsigned executor = a->executor;

    g_free(a);
    g_mutex_lock(&p->lock);
    for (;;) {
        WorkJob *job;

        while (!p->head && !p->quit) {
            p->idle++;
            g_cond_wait(&p->work, &p->lock);
            p->idle--;
        }
        if (p->quit) {
            break;
        }
        job = p->head;
        unlink_job(p, job);
        __atomic_store_n(&job->state, JOB_RUNNING, __ATOMIC_RELAXED);
        g_mutex_unlock(&p->lock);
        job->fn(job, executor);
        g_mutex_lock(&p->lock);
        job_done(p, job);
    }
    g_mutex_unlock(&p->lock);
    return NULL;
}

WorkPool *workpool_new(const char *name, unsigned threads)
{
    WorkPool *p = g_new0(WorkPool, 1);

    g_mutex_init(&p->lock);
    g_cond_init(&p->work);
    g_cond_init(&p->done);
    p->nthreads = threads;
    p->threads = g_new0(GThread *, MAX(threads, 1u));
    for (unsigned i = 0; i < threads; i++) {
        WorkerArg *a = g_new(WorkerArg, 1);

        a->p = p;
        a->executor = i + 1;
        p->threads[i] = g_thread_new(name, worker, a);
    }
    return p;
}

void workpool_free(WorkPool *p)
{
    if (!p) {
        return;
    }
    g_mutex_lock(&p->lock);
    p->quit = true;
    g_cond_broadcast(&p->work);
    g_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->nthreads; i++) {
        g_thread_join(p->threads[i]);
    }
    g_free(p->threads);
    g_cond_clear(&p->work);
    g_cond_clear(&p->done);
    g_mutex_clear(&p->lock);
    g_free(p);
}

unsigned workpool_threads(const WorkPool *p)
{
    return p->nthreads;
}

void workpool_submit(WorkPool *p, WorkJob *job)
{
    g_mutex_lock(&p->lock);
    g_assert(job->state != JOB_QUEUED && job->state != JOB_RUNNING);
    __atomic_store_n(&job->state, JOB_QUEUED, __ATOMIC_RELAXED);
    job->next = NULL;
    if (p->tail) {
        p->tail->next = job;
    } else {
        p->head = job;
    }
    p->tail = job;
    if (p->idle) {
        /* busy workers look at the queue before they wait */
        g_cond_signal(&p->work);
    }
    g_mutex_unlock(&p->lock);
}

/*
 * Without the lock (the engine polls its lanes often, and each poll fought
 * the workers for it): only job_done moves a job the submitter does not
 * own to DONE, and nothing touches a DONE job but its submitter.
 */
bool workpool_poll(WorkPool *p, WorkJob *job)
{
    int st = __atomic_load_n(&job->state, __ATOMIC_ACQUIRE);

    if (st != JOB_DONE && st != JOB_IDLE) {
        return false;
    }
    job->state = JOB_IDLE;
    return true;
}

/* Run queued @job on the waiter's thread (executor 0); p->lock held. */
static void run_here(WorkPool *p, WorkJob *job)
{
    unlink_job(p, job);
    __atomic_store_n(&job->state, JOB_RUNNING, __ATOMIC_RELAXED);
    g_mutex_unlock(&p->lock);
    job->fn(job, 0);
    g_mutex_lock(&p->lock);
    job_done(p, job);
}

void workpool_wait(WorkPool *p, WorkJob *job)
{
    g_mutex_lock(&p->lock);
    if (job->state == JOB_QUEUED) {
        run_here(p, job);
    }
    while (job->state == JOB_RUNNING) {
        if (p->head) {
            /* rather than sleep, the oldest queued job */
            run_here(p, p->head);
            continue;
        }
        p->waiting++;
        g_cond_wait(&p->done, &p->lock);
        p->waiting--;
    }
    job->state = JOB_IDLE;
    g_mutex_unlock(&p->lock);
}
