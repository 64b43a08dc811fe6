/* fontconfig's configuration loaded ahead on a thread of its own: FontConfigPreload.h says what
   and why. */
#include "FontConfigPreload.h"

#include <fontconfig/fontconfig.h>
#include <pthread.h>

/* Where the preload stands: started (by the first call), finished (the thread's FcInit has
   returned) and what it found. */
static pthread_mutex_t preload_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t preload_done = PTHREAD_COND_INITIALIZER;
static int started = 0, finished = 0;
static const void *result = NULL;

static void *porthole_fontconfig_loader(void *unused) {
    (void)unused;
    const void *config = FcInit() ? (const void *)FcConfigGetCurrent() : NULL;
    pthread_mutex_lock(&preload_lock);
    result = config;
    finished = 1;
    pthread_cond_broadcast(&preload_done);
    pthread_mutex_unlock(&preload_lock);
    return NULL;
}

int porthole_preload_fontconfig(void) {
    pthread_mutex_lock(&preload_lock);
    int already = started;
    started = 1;
    pthread_mutex_unlock(&preload_lock);
    if (already) return 0;
    pthread_attr_t attributes;
    pthread_t thread;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    int running = pthread_create(&thread, &attributes, porthole_fontconfig_loader, NULL) == 0;
    pthread_attr_destroy(&attributes);
    if (!running) {
        pthread_mutex_lock(&preload_lock);
        finished = 1;
        pthread_cond_broadcast(&preload_done);
        pthread_mutex_unlock(&preload_lock);
    }
    return running;
}

void porthole_finish_fontconfig_preload(void) {
    pthread_mutex_lock(&preload_lock);
    while (started && !finished) pthread_cond_wait(&preload_done, &preload_lock);
    pthread_mutex_unlock(&preload_lock);
}

const void *porthole_fontconfig_preload_result(void) {
    pthread_mutex_lock(&preload_lock);
    const void *config = finished ? result : NULL;
    pthread_mutex_unlock(&preload_lock);
    return config;
}

const void *porthole_fontconfig_current(void) { return FcConfigGetCurrent(); }
