/* floor: the engine floor for Porthole's benchmarks -- one GtkWindow holding one WebKitWebView
 * that loads the URL given on the command line, and nothing else. A WebKitGTK 4.1 browser cannot
 * start faster, use less memory or idle more quietly than this, so bench/run.py reports
 * Porthole's figures as ratios to it.
 *
 * Build (make bench does it): cc -O2 floor.c -o floor $(pkg-config --cflags --libs webkit2gtk-4.1)
 * Usage: floor URL
 */
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    gtk_init(&argc, &argv);
    if (argc != 2) {
        fprintf(stderr, "usage: %s URL\n", argv[0]);
        return 2;
    }
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    /* The same default size as Porthole's window (BrowserWindow), so both top levels match. */
    gtk_window_set_default_size(GTK_WINDOW(window), 1024, 700);
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);

    GtkWidget *view = webkit_web_view_new();
    gtk_container_add(GTK_CONTAINER(window), view);
    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), argv[1]);

    gtk_widget_show_all(window);
    gtk_main();
    return 0;
}
