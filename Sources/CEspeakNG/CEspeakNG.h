/* The espeak-ng seam for PortholeUI's speech engine: the classic speak_lib API, which espeak-ng keeps. */
#include <espeak-ng/speak_lib.h>
