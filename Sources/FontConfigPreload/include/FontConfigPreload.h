/* fontconfig's configuration loaded ahead, on a thread of its own, in each web process (issue
   26). WebKit's web process loads it on its main thread (FcInitLoadConfigAndFonts, 7-8 ms: the
   configuration files parsed with expat, the font caches mapped) after its EGL set-up and before
   it asks for its first page; the extension's entry point runs 60-80 ms earlier, and the EGL
   set-up between is Mesa's driver loading, which leaves the other core mostly free. fontconfig
   publishes one configuration with an atomic compare-and-swap, so whichever thread finishes
   first sets it and a main thread that arrives while the load runs loads its own and keeps the
   first. No library is opened on the thread: it never waits for the dynamic loader's lock, and a
   process may exit while it runs. */
#ifndef PORTHOLE_FONTCONFIG_PRELOAD_H
#define PORTHOLE_FONTCONFIG_PRELOAD_H

/* Starts loading fontconfig's configuration on a detached thread and returns at once: 1 when the
   thread started, 0 when it did not (it started before, or the thread could not be made). */
int porthole_preload_fontconfig(void);

/* Returns once the preload has finished (at once when it never started) with the configuration
   its thread found current once its load returned, or NULL (it never ran, or fontconfig failed).
   For tests. */
const void *porthole_finish_fontconfig_preload(void);

/* The process's current configuration (FcConfigGetCurrent, which loads it if nothing has). For
   tests. */
const void *porthole_fontconfig_current(void);

#endif
