/* The espeak-ng seam for PortholeUI's speech engine: the classic speak_lib API, which espeak-ng
   keeps. Types and constants only: the library is opened at run time (EspeakLibrary.swift). */
#include <espeak-ng/speak_lib.h>
