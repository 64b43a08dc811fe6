/* The installed `porthole`: opens the shared library that holds the browser's code and runs it
 * (porthole_launch, Sources/porthole/PortholeMain.swift). Every web process loads the same
 * library as Porthole's web process extension, so the Swift runtime's pages are mapped from one
 * file, not once from the binary and again from the extension in each web process.
 *
 * The library is looked for where the browser looks for its extension (WebProcessExtension):
 * ../lib/porthole/web-extensions beside an installed binary, web-extensions/ beside one in a
 * build tree. Without it the installation is broken: the launcher says which files it tried and
 * why each failed, and exits 127 (as the shell does for a command it cannot run). */
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LIBRARY "libPortholeWebExtension.so"

int main(int argc, char **argv)
{
    static const char *const directories[] = { "/../lib/porthole/web-extensions/", "/web-extensions/" };
    enum { count = sizeof directories / sizeof directories[0] };
    char exe[PATH_MAX], paths[count][PATH_MAX], errors[count][512];

    ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (length < 0) {
        fprintf(stderr, "porthole: cannot find its own binary (/proc/self/exe): %s\n", strerror(errno));
        return 127;
    }
    exe[length] = '\0';
    const char *bin = dirname(exe);
    for (int i = 0; i < count; i++) {
        snprintf(paths[i], sizeof paths[i], "%s%s%s", bin, directories[i], LIBRARY);
        void *library = dlopen(paths[i], RTLD_LAZY);
        if (library) {
            int (*launch)(int, char **) = (int (*)(int, char **))dlsym(library, "porthole_launch");
            if (launch) return launch(argc, argv);
            snprintf(errors[i], sizeof errors[i], "%s: it has no porthole_launch", paths[i]);
        } else {
            snprintf(errors[i], sizeof errors[i], "%s", dlerror());
        }
    }
    fprintf(stderr, "porthole: the installation is incomplete: the browser's library %s could not be loaded\n", LIBRARY);
    for (int i = 0; i < count; i++) fprintf(stderr, "porthole:   %s\n", errors[i]);
    return 127;
}
