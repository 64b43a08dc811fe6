/* The Swift runtime's command line, read on first use: include/ProcessArguments.h says why. */
#include "ProcessArguments.h"

#include <glib.h>
#include <string.h>

static char *empty[] = { NULL };
static char **arguments = empty;
static int argumentCount = 0;

static gpointer readArguments(gpointer unused) {
    (void)unused;
    gchar *data;
    gsize length;
    if (!g_file_get_contents("/proc/self/cmdline", &data, &length, NULL)) return NULL;
    if (length == 0) { g_free(data); return NULL; }
    /* Every argument ends in a NUL; GLib puts one after the last byte read, which ends a last
       argument without one (a process that rewrote its command line). */
    if (data[length - 1] != '\0') length++;
    int count = 0;
    for (gsize i = 0; i < length; i++) if (data[i] == '\0') count++;
    char **list = g_new(char *, (gsize)count + 1);
    char *next = data;
    for (int i = 0; i < count; i++) {
        list[i] = next;
        next += strlen(next) + 1;
    }
    list[count] = NULL;
    arguments = list;
    argumentCount = count;
    return NULL;
}

char **porthole_process_arguments(int *count) {
    static GOnce once = G_ONCE_INIT;
    g_once(&once, readArguments, NULL);
    *count = argumentCount;
    return arguments;
}

/* The one entry point the runtime's code calls (Swift.o's reference to CommandLine.cpp's
   `_swift_stdlib_getUnsafeArgvArgc`; its `_swift_stdlib_overrideUnsafeArgvArgc` is for a JIT and
   nothing calls it), with the runtime's calling convention. Hidden: it answers the runtime linked
   into this library, and no other. */
__attribute__((swiftcall, visibility("hidden"))) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen);

__attribute__((swiftcall, visibility("hidden")))
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    return porthole_process_arguments(outArgLen);
}
