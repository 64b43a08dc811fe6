/* Work run once on a detached thread, and waited for: what the preloads share (GLDriverPreload in
   the UI process, FontConfigPreload in each web process). A task starts at most once; whoever
   needs its work done, or must not exit while it runs, waits for it to finish. */
#ifndef PORTHOLE_BACKGROUND_TASK_H
#define PORTHOLE_BACKGROUND_TASK_H

#include <pthread.h>

typedef struct porthole_background_task {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int started, finished;
} porthole_background_task;

/* A task that has not started: for a static variable. */
#define PORTHOLE_BACKGROUND_TASK_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 }

/* Runs `work(argument)` on a detached thread unless `task` has started before. Returns 1 when the
   thread started (it then owns `argument`), 0 when it did not (the task started before, or no
   thread could be made: the task then counts as finished; `argument` stays the caller's). */
int porthole_background_task_start(porthole_background_task *task, void (*work)(void *), void *argument);

/* Returns once `task`'s work has returned, at once when it never started. */
void porthole_background_task_wait(porthole_background_task *task);

#endif
