/* Work run once on a detached thread, and waited for: BackgroundTask.h says what for. */
#include "BackgroundTask.h"

#include <stdlib.h>

struct porthole_background_run {
    porthole_background_task *task;
    void (*work)(void *);
    void *argument;
};

static void porthole_background_task_mark_finished(porthole_background_task *task) {
    pthread_mutex_lock(&task->lock);
    task->finished = 1;
    pthread_cond_broadcast(&task->done);
    pthread_mutex_unlock(&task->lock);
}

static void *porthole_background_task_thread(void *data) {
    struct porthole_background_run *run = data;
    run->work(run->argument);
    porthole_background_task_mark_finished(run->task);
    free(run);
    return NULL;
}

int porthole_background_task_start(porthole_background_task *task, void (*work)(void *), void *argument) {
    pthread_mutex_lock(&task->lock);
    int already = task->started;
    task->started = 1;
    pthread_mutex_unlock(&task->lock);
    if (already) return 0;
    struct porthole_background_run *run = malloc(sizeof *run);
    int running = 0;
    if (run != NULL) {
        *run = (struct porthole_background_run){ task, work, argument };
        pthread_attr_t attributes;
        pthread_t thread;
        pthread_attr_init(&attributes);
        pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        running = pthread_create(&thread, &attributes, porthole_background_task_thread, run) == 0;
        pthread_attr_destroy(&attributes);
        if (!running) free(run);
    }
    if (!running) porthole_background_task_mark_finished(task);
    return running;
}

void porthole_background_task_wait(porthole_background_task *task) {
    pthread_mutex_lock(&task->lock);
    while (task->started && !task->finished) pthread_cond_wait(&task->done, &task->lock);
    pthread_mutex_unlock(&task->lock);
}
