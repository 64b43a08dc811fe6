/* The process's command line for the Swift runtime linked into Porthole's library, read when
   something first asks for it instead of when the library is loaded (issue 26).

   The static Swift runtime (libswiftCore.a, CommandLine.cpp) finds argv on Linux with a global
   constructor that reads all of /proc/self/maps, every time the library is loaded: in the UI
   process and in every web process, on the way to the first page. With WebKit, GTK and their
   ~150 libraries mapped that is 1,000-1,500 lines, 1.4-2.6 ms of a start in each (uprobes on the
   constructor, docs/performance-choices.md). This target defines the function the runtime's
   code asks (`_swift_stdlib_getUnsafeArgvArgc`), so the linker never takes the runtime's object,
   and answers from /proc/self/cmdline (GLib's g_file_get_contents) on the first call, as the
   runtime itself does where it has no argv grabber. `make launcher` fails if the runtime's object
   is linked all the same (a toolchain that renames it). */
#ifndef PORTHOLE_PROCESS_ARGUMENTS_H
#define PORTHOLE_PROCESS_ARGUMENTS_H

/* The process's arguments, read from /proc/self/cmdline on the first call (thread-safe) and kept
   for the process's life: a NULL-terminated array, its length in `count`. Unreadable, it is empty
   (count 0), as the runtime's own is when it cannot find the stack. */
char **porthole_process_arguments(int *count);

#endif
