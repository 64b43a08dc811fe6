/* The JSON-GLib seam for PortholeCore: reading Chrome's policy files. */
#include <json-glib/json-glib.h>
