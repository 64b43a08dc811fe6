/* fontconfig's configuration loaded ahead on a thread of its own: FontConfigPreload.h says what
   and why. */
#include "FontConfigPreload.h"

#include "BackgroundTask.h"

#include <fontconfig/fontconfig.h>

/* The preload, started by the first call, and what its thread found: written before the task is
   marked finished, read only after waiting for it (the task's lock orders the two). */
static porthole_background_task preload = PORTHOLE_BACKGROUND_TASK_INIT;
static const void *result = NULL;

static void porthole_fontconfig_loader(void *unused) {
    (void)unused;
    result = FcInit() ? (const void *)FcConfigGetCurrent() : NULL;
}

int porthole_preload_fontconfig(void) {
    return porthole_background_task_start(&preload, porthole_fontconfig_loader, NULL);
}

const void *porthole_finish_fontconfig_preload(void) {
    porthole_background_task_wait(&preload);
    return result;
}

const void *porthole_fontconfig_current(void) { return FcConfigGetCurrent(); }
