/* The dynamic loader's dladdr (a GNU extension, hence its own module): which loaded file
   defines a symbol, asked of the loader instead of reading and scanning /proc/self/maps. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stddef.h>

/* The file of the loaded object (shared library or program) that exports the dynamic symbol
   `name`, NULL if no loaded object exports it. */
static inline const char *porthole_object_file_defining(const char *name) {
    void *address = dlsym(RTLD_DEFAULT, name);
    Dl_info info;
    return address != NULL && dladdr(address, &info) != 0 ? info.dli_fname : NULL;
}
