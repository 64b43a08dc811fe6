/* Mesa's GL driver loaded ahead, on a thread of its own, in the UI process as soon as its
   environment is set. GTK's GL check (in gtk_init) opens the driver on the main thread, and
   loading it (with LLVM, which llvmpipe needs) is 15-35 ms of relocations that the other core
   can do meanwhile.

   A process must not exit while the thread is still inside dlopen: exit's handlers would tear
   down the libraries whose constructors the thread is running (LLVM's pass registry), and the
   process then hangs on the loader's lock or aborts (a second `porthole URL`, which hands its URL
   over and exits at once, did). Every exit after the preload started goes through
   `porthole_finish_gl_driver_preload` first. */
#ifndef PORTHOLE_GL_DRIVER_PRELOAD_H
#define PORTHOLE_GL_DRIVER_PRELOAD_H

/* Starts loading Mesa's GL driver on a detached thread and returns at once: 1 when the thread
   started, 0 when it did not (it started before, or NVIDIA's proprietary driver runs: its GL is
   its own). Call it once the process's environment is set: the driver's constructors read it,
   and setenv is not safe while another thread runs. */
int porthole_preload_gl_driver(void);

/* Returns once the preload has finished, at once when it never started: call it before exit. */
void porthole_finish_gl_driver_preload(void);

/* The driver the preload opens: the first directory of `drivers_path` (LIBGL_DRIVERS_PATH's
   value) when it is set and not empty, else the `dri` directory beside Mesa's EGL library;
   swrast_dri.so there. Writes its canonical path to `path` (PATH_MAX bytes) and returns 1, or
   returns 0 when there is none. */
int porthole_gl_driver_path(const char *drivers_path, char *path);

#endif
