/* The Swift runtime's command line, read on first use: include/ProcessArguments.h says why. */
#include "ProcessArguments.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char *empty[] = { NULL };
static char **arguments = empty;
static int argumentCount = 0;

/* Set by `_swift_stdlib_overrideUnsafeArgvArgc`, which takes precedence, as in the runtime. */
static char **overrideArguments = NULL;
static int overrideCount = 0;

static void readArguments(void) {
    FILE *file = fopen("/proc/self/cmdline", "re");
    if (file == NULL) return;
    size_t capacity = 4096, length = 0;
    char *data = malloc(capacity);
    while (data != NULL) {
        length += fread(data + length, 1, capacity - length, file);
        if (length < capacity) break;
        char *larger = realloc(data, capacity * 2);
        if (larger == NULL) { free(data); data = NULL; break; }
        data = larger;
        capacity *= 2;
    }
    fclose(file);
    if (data == NULL || length == 0) { free(data); return; }
    /* Every argument ends in a NUL; a last one without (a process that rewrote its command line)
       gets one. */
    if (data[length - 1] != '\0') {
        if (length == capacity) {
            char *larger = realloc(data, capacity + 1);
            if (larger == NULL) { free(data); return; }
            data = larger;
        }
        data[length++] = '\0';
    }
    int count = 0;
    for (size_t i = 0; i < length; i++) if (data[i] == '\0') count++;
    char **list = malloc(sizeof(char *) * ((size_t)count + 1));
    if (list == NULL) { free(data); return; }
    char *next = data;
    for (int i = 0; i < count; i++) {
        list[i] = next;
        next += strlen(next) + 1;
    }
    list[count] = NULL;
    arguments = list;
    argumentCount = count;
}

char **porthole_process_arguments(int *count) {
    pthread_once(&once, readArguments);
    *count = argumentCount;
    return arguments;
}

__attribute__((swiftcall, visibility("hidden"))) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen);
__attribute__((swiftcall, visibility("hidden"))) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc);

/* The runtime's entry points (stdlib/public/CommandLineSupport/CommandLine.cpp), with its calling
   convention. Hidden: they answer the runtime linked into this library, and no other. */
__attribute__((swiftcall, visibility("hidden")))
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    if (overrideArguments != NULL) {
        *outArgLen = overrideCount;
        return overrideArguments;
    }
    return porthole_process_arguments(outArgLen);
}

__attribute__((swiftcall, visibility("hidden")))
void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    overrideArguments = argv;
    overrideCount = argc;
}
