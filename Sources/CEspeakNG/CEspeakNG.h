/* The espeak-ng seam for PortholeUI's speech engine: the classic speak_lib API, which espeak-ng
   keeps. Types and constants only: the library is opened at run time (EspeakLibrary.swift). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include <dlfcn.h>
#include <espeak-ng/speak_lib.h>

/* The file of the loaded object (library or program) that holds `address`, NULL if none:
   where the libraries the process already has live, found without opening another one. */
static inline const char *porthole_object_file(const void *address) {
    Dl_info info;
    return dladdr(address, &info) != 0 ? info.dli_fname : NULL;
}
