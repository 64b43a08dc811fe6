/* The GLib/GObject/GIO seam for PortholeCore and GLibBridge. */
#include <gio/gio.h>
#include <glib-unix.h>
