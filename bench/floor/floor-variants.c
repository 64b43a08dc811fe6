/* floor-variants: the engine floor (floor.c) with one WebKit setting changed at a time, for the
 * measurements in docs/performance-choices.md. Same window and view as floor.c; the settings come
 * from the environment so that bench/run.py can run each variant as a peer (`--peer NAME=WRAPPER`,
 * a two-line shell script that sets one variable and execs this program):
 *
 *   FLOOR_CACHE_MODEL=document-viewer|document-browser|web-browser   webkit_web_context_set_cache_model
 *   FLOOR_ACCELERATION=never|always       WebKitSettings:hardware-acceleration-policy
 *   FLOOR_PAGE_CACHE=0|1                  WebKitSettings:enable-page-cache (back/forward cache)
 *   FLOOR_HEADER_TITLE=1                  a GtkHeaderBar whose title and subtitle follow the page
 *   FLOOR_SANDBOX=1                       web processes in WebKit's bubblewrap sandbox
 *                                         (webkit_web_context_set_sandbox_enabled), as Porthole runs them
 *   FLOOR_USER_SCRIPT=FILE                FILE's script at document start in every frame, in the script
 *                                         world FLOOR_USER_SCRIPT_WORLD (default porthole-speech), with a
 *                                         message handler FLOOR_USER_SCRIPT_HANDLER (default portholeSpeech)
 *                                         registered there, as Porthole's speech watcher adds its own
 *   (WEBKIT_SKIA_ENABLE_CPU_RENDERING=1 is WebKit's own: page content painted on the CPU)
 *
 * Build: cc -O2 floor-variants.c -o floor-variants $(pkg-config --cflags --libs webkit2gtk-4.1)
 */
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static GtkWidget *header;

static void follow_title(WebKitWebView *view, GParamSpec *pspec, gpointer data)
{
    (void)pspec;
    (void)data;
    gtk_header_bar_set_title(GTK_HEADER_BAR(header), webkit_web_view_get_title(view));
    gtk_header_bar_set_subtitle(GTK_HEADER_BAR(header), webkit_web_view_get_uri(view));
}

int main(int argc, char **argv)
{
    gtk_init(&argc, &argv);
    if (argc != 2) {
        fprintf(stderr, "usage: %s URL\n", argv[0]);
        return 2;
    }
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 1024, 700);
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);

    const char *cache = getenv("FLOOR_CACHE_MODEL");
    if (cache)
        webkit_web_context_set_cache_model(webkit_web_context_get_default(),
                                           !strcmp(cache, "document-viewer") ? WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER
                                           : !strcmp(cache, "document-browser") ? WEBKIT_CACHE_MODEL_DOCUMENT_BROWSER
                                           : WEBKIT_CACHE_MODEL_WEB_BROWSER);
    if (getenv("FLOOR_SANDBOX"))
        webkit_web_context_set_sandbox_enabled(webkit_web_context_get_default(), TRUE);
    GtkWidget *view = webkit_web_view_new();
    WebKitSettings *settings = webkit_web_view_get_settings(WEBKIT_WEB_VIEW(view));
    const char *acceleration = getenv("FLOOR_ACCELERATION");
    if (acceleration)
        webkit_settings_set_hardware_acceleration_policy(settings, !strcmp(acceleration, "never")
                                                         ? WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER
                                                         : WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS);
    const char *page_cache = getenv("FLOOR_PAGE_CACHE");
    if (page_cache)
        webkit_settings_set_enable_page_cache(settings, atoi(page_cache) != 0);
    if (getenv("FLOOR_HEADER_TITLE")) {
        header = gtk_header_bar_new();
        gtk_header_bar_set_show_close_button(GTK_HEADER_BAR(header), TRUE);
        gtk_window_set_titlebar(GTK_WINDOW(window), header);
        g_signal_connect(view, "notify::title", G_CALLBACK(follow_title), NULL);
    }
    const char *script_file = getenv("FLOOR_USER_SCRIPT");
    if (script_file) {
        gchar *source = NULL;
        GError *error = NULL;
        if (!g_file_get_contents(script_file, &source, NULL, &error)) {
            fprintf(stderr, "floor-variants: FLOOR_USER_SCRIPT: %s\n", error->message);
            return 1;
        }
        const char *world = getenv("FLOOR_USER_SCRIPT_WORLD") ? getenv("FLOOR_USER_SCRIPT_WORLD") : "porthole-speech";
        const char *handler = getenv("FLOOR_USER_SCRIPT_HANDLER") ? getenv("FLOOR_USER_SCRIPT_HANDLER") : "portholeSpeech";
        WebKitUserContentManager *manager = webkit_web_view_get_user_content_manager(WEBKIT_WEB_VIEW(view));
        webkit_user_content_manager_register_script_message_handler_in_world(manager, handler, world);
        WebKitUserScript *script = webkit_user_script_new_for_world(source, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                                                    WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, world, NULL, NULL);
        webkit_user_content_manager_add_script(manager, script);
        webkit_user_script_unref(script);
        g_free(source);
    }
    gtk_container_add(GTK_CONTAINER(window), view);
    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), argv[1]);
    gtk_widget_show_all(window);
    gtk_main();
    return 0;
}
