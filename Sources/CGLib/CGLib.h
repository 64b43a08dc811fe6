/* The GLib/GObject/GIO seam for PortholeCore and GLibBridge. */
#include <gio/gio.h>
#include <glib-unix.h>
/* libxcrypt: crypt_r and crypt_gensalt_rn for the kiosk exit PIN (Debian: libcrypt-dev). */
#include <crypt.h>
#include <libintl.h>
#include <locale.h>

/* g_application_command_line_printerr/print are printf-style (variadic), which Swift cannot call. */
static inline void porthole_command_line_printerr(GApplicationCommandLine *command_line, const char *message) {
    g_application_command_line_printerr(command_line, "%s", message);
}
static inline void porthole_command_line_print(GApplicationCommandLine *command_line, const char *message) {
    g_application_command_line_print(command_line, "%s", message);
}

/* G_TYPE_FROM_INSTANCE is a macro: the GType of an object (or any GTypeInstance). */
static inline GType porthole_instance_type(gpointer instance) {
    return G_TYPE_FROM_INSTANCE(instance);
}
