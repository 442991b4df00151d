/*
 * A pool of host threads for jobs whose results a single owner collects
 * in an order of its own (e.g. the FP launches of a draw, retired in API
 * order by the engine thread).
 *
 *     job->fn = run_batch;
 *     workpool_submit(pool, job);     (a worker may start it at once)
 *     ...
 *     workpool_wait(pool, job);       (done: by a worker, or by the caller
 *                                      itself if no worker had started it)
 *
 * fn gets the executor: 1..workpool_threads() for the pool's threads, 0
 * for the thread in workpool_wait(), so per-executor state (decode
 * caches) needs no lock: the caller's state is used only from the thread
 * that owns the jobs.  A pool of 0 threads runs every job in
 * workpool_wait(): the serial path, with the same code.
 *
 * Locks: the pool's own mutex, a leaf (no other lock is taken with it
 * held; jobs run without it).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_WORKPOOL_H
#define GEMU_WORKPOOL_H

#include "gemu/osdep.h"

typedef struct WorkPool WorkPool;
typedef struct WorkJob WorkJob;

struct WorkJob {
    void (*fn)(WorkJob *job, unsigned executor);
    /* the pool's (zero before the first submit) */
    int state;
    WorkJob *next;
};

/* A pool of @threads host threads named @name (0: run jobs in wait). */
WorkPool *workpool_new(const char *name, unsigned threads);
/* Waits for running jobs; queued ones are dropped. */
void workpool_free(WorkPool *p);
unsigned workpool_threads(const WorkPool *p);
/* Queue @job (not queued or running already). */
void workpool_submit(WorkPool *p, WorkJob *job);
/*
 * Return once @job (submitted) has run, running it here if not started,
 * and other queued jobs here while it runs on a worker (so a job must
 * not depend on a later one having run, nor two queued jobs on each
 * other's order).
 */
void workpool_wait(WorkPool *p, WorkJob *job);
/*
 * true if @job has run (as workpool_wait would then return at once, and
 * with the same effect); false if it is queued or running.  A pool of 0
 * threads runs nothing here: its jobs run in workpool_wait.
 */
bool workpool_poll(WorkPool *p, WorkJob *job);

#endif
