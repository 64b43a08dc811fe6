/* Mesa's GL driver loaded ahead, on a thread of its own, while the main thread does other work
   (issue 26): GLDriverPreload.h says what and why. Its own C target, built with the GNU
   extensions it needs (dlinfo), so no Swift module sees the C library's headers with them. */
#define _GNU_SOURCE
#include "GLDriverPreload.h"

#include "BackgroundTask.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Mesa's loader looks in LIBGL_DRIVERS_PATH's first directory, else in its build's `dri`
   directory, which is beside its EGL library (that library stays loaded: the GL GTK and WebKit
   open uses it). swrast_dri.so, the software rasterizer, is in every Mesa, and since Mesa 22
   every Gallium driver (iris, radeonsi, ...) is the same file under other names, or (Mesa 24.1
   on) a stub linking the same libgallium: the dynamic loader matches files by device and inode,
   so whichever name Mesa opens later maps this one copy. */
int porthole_gl_driver_path(const char *drivers_path, char *path) {
    char directory[PATH_MAX], candidate[PATH_MAX + 32];
    if (drivers_path != NULL && drivers_path[0] != '\0') {
        size_t length = strcspn(drivers_path, ":");
        if (length >= sizeof directory) return 0;
        memcpy(directory, drivers_path, length);
        directory[length] = '\0';
        snprintf(candidate, sizeof candidate, "%s/swrast_dri.so", directory);
    } else {
        void *egl = dlopen("libEGL_mesa.so.0", RTLD_LAZY | RTLD_LOCAL);
        if (egl == NULL || dlinfo(egl, RTLD_DI_ORIGIN, directory) != 0) return 0;
        snprintf(candidate, sizeof candidate, "%s/dri/swrast_dri.so", directory);
    }
    return realpath(candidate, path) != NULL;
}

/* The preload: started by the first call, waited for before exit. */
static porthole_background_task preload = PORTHOLE_BACKGROUND_TASK_INIT;

/* The preload's work. `drivers_path`: a copy of LIBGL_DRIVERS_PATH, or NULL. */
static void porthole_gl_driver_loader(void *drivers_path) {
    char path[PATH_MAX];
    /* Mesa's loader opens its driver RTLD_NOW | RTLD_GLOBAL: the same here, so its own dlopen
       finds this copy with nothing left to do. The handle is kept: the driver is used for the
       process's life. */
    if (porthole_gl_driver_path((const char *)drivers_path, path)) (void)dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    free(drivers_path);
}

int porthole_preload_gl_driver(void) {
    /* NVIDIA's proprietary driver brings its own GL: Mesa's would be loaded for nothing. */
    if (access("/proc/driver/nvidia/version", F_OK) == 0) return 0;
    const char *variable = getenv("LIBGL_DRIVERS_PATH");
    char *drivers_path = variable != NULL ? strdup(variable) : NULL;
    if (porthole_background_task_start(&preload, porthole_gl_driver_loader, drivers_path)) return 1;
    free(drivers_path);
    return 0;
}

void porthole_finish_gl_driver_preload(void) {
    porthole_background_task_wait(&preload);
}
