/* The GTK 3 + WebKitGTK seam for PortholeUI: one header, and inline helpers for macros Swift cannot import. */
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

/* GDK_BUTTON_PRESS event fields: GdkEvent is a union, which Swift imports awkwardly. */
static inline guint porthole_event_button(const GdkEvent *event) {
    return event->type == GDK_BUTTON_PRESS ? ((const GdkEventButton *)event)->button : 0;
}

/* webkit_website_data_manager_new() is variadic (properties as varargs), which Swift cannot call. */
static inline WebKitWebsiteDataManager *porthole_website_data_manager_new(const char *base_data_directory,
                                                                          const char *base_cache_directory) {
    return webkit_website_data_manager_new("base-data-directory", base_data_directory,
                                           "base-cache-directory", base_cache_directory, NULL);
}

/* Types of the web process API (the same library registers them), whose header cannot be included
   beside webkit2.h: declared so that SignalCatalog can check the web process extension's signals. */
GType webkit_web_extension_get_type(void);
GType webkit_web_page_get_type(void);

/* A web view on a context with a given user content manager: g_object_new is variadic, and the
   manager is construct-only. */
static inline GtkWidget *porthole_web_view_new(WebKitWebContext *context, WebKitUserContentManager *manager) {
    return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context, "user-content-manager", manager, NULL));
}

/* The display connection's file descriptor, or -1: X11's or Wayland's. Porthole watches it to say
   why it exits when the display goes away (GDK and Xlib then end the process with a line of their
   own, not in the journal's terms). Declared here rather than through gdkx.h and gdkwayland.h,
   whose Xlib and Wayland names would all be imported into Swift beside GTK's. */
int XConnectionNumber(void *display);
typedef int (*PortholeXIOErrorHandler)(void *display);
PortholeXIOErrorHandler XSetIOErrorHandler(PortholeXIOErrorHandler handler);
GType gdk_x11_display_get_type(void);
void *gdk_x11_display_get_xdisplay(GdkDisplay *display);
GType gdk_wayland_display_get_type(void);
struct wl_display *gdk_wayland_display_get_wl_display(GdkDisplay *display);
int wl_display_get_fd(struct wl_display *display);

static inline gboolean porthole_display_is_x11(GdkDisplay *display) {
    return display != NULL && G_TYPE_CHECK_INSTANCE_TYPE(display, gdk_x11_display_get_type());
}

static inline int porthole_display_fd(GdkDisplay *display) {
    if (porthole_display_is_x11(display))
        return XConnectionNumber(gdk_x11_display_get_xdisplay(display));
    if (display != NULL && G_TYPE_CHECK_INSTANCE_TYPE(display, gdk_wayland_display_get_type()))
        return wl_display_get_fd(gdk_wayland_display_get_wl_display(display));
    return -1;
}

/* From gtk/gtkunixprint.h (gtk+-unix-print-3.0, whose include path webkit2gtk-4.1 does not give):
   the printers GTK's print dialog would offer, for the check that none prints to a file. */
typedef struct _GtkPrinter GtkPrinter;
typedef gboolean (*GtkPrinterFunc)(GtkPrinter *printer, gpointer data);
void gtk_enumerate_printers(GtkPrinterFunc func, gpointer data, GDestroyNotify destroy, gboolean wait);
const gchar *gtk_printer_get_name(GtkPrinter *printer);
