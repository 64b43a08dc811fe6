/* floor-variants: the engine floor (floor.c) with one WebKit setting changed at a time, for the
 * measurements in docs/performance-choices.md. Same window and view as floor.c; the settings come
 * from the environment so that bench/run.py can run each variant as a peer (`--peer NAME=WRAPPER`,
 * a two-line shell script that sets one variable and execs this program):
 *
 *   FLOOR_CACHE_MODEL=document-viewer|document-browser|web-browser   webkit_web_context_set_cache_model
 *   FLOOR_ACCELERATION=never|always       WebKitSettings:hardware-acceleration-policy
 *   FLOOR_PAGE_CACHE=0|1                  WebKitSettings:enable-page-cache (back/forward cache)
 *   FLOOR_HEADER_TITLE=1                  a GtkHeaderBar whose title and subtitle follow the page
 *   FLOOR_CHROME=1                        Porthole's desk window around the view, built with GTK alone: a
 *                                         header bar (Back and Forward, a title and a subtitle that follow
 *                                         the page, an Open menu and the main menu, each with its menu
 *                                         model), a bottom bar (the load's progress, Reload and Stop), the
 *                                         window's icon and the controls' accessible names; none of
 *                                         Porthole's code, policy, actions or D-Bus registration
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

/* FLOOR_CHROME: the title and subtitle labels, the progress slot and the refresh icons. */
static GtkWidget *title_label, *subtitle_label, *progress_slot, *progress_bar, *refresh_icons;

static GtkWidget *chrome_label(const char *style_class)
{
    GtkWidget *label = gtk_label_new(NULL);
    gtk_style_context_add_class(gtk_widget_get_style_context(label), style_class);
    gtk_label_set_single_line_mode(GTK_LABEL(label), TRUE);
    gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_END);
    gtk_label_set_width_chars(GTK_LABEL(label), 5);
    return label;
}

static void chrome_name(GtkWidget *widget, const char *name)
{
    atk_object_set_name(gtk_widget_get_accessible(widget), name);
}

static GtkWidget *chrome_icon_button(const char *icon, const char *name, const char *tooltip)
{
    GtkWidget *button = gtk_button_new_from_icon_name(icon, GTK_ICON_SIZE_BUTTON);
    gtk_widget_set_tooltip_text(button, tooltip);
    chrome_name(button, name);
    gtk_widget_set_focus_on_click(button, FALSE);
    return button;
}

static void chrome_section(GMenu *menu, const char *first_label, const char *first_action,
                           const char *second_label, const char *second_action)
{
    GMenu *section = g_menu_new();
    g_menu_append(section, first_label, first_action);
    g_menu_append(section, second_label, second_action);
    g_menu_append_section(menu, NULL, G_MENU_MODEL(section));
    g_object_unref(section);
}

/* The page's title over its host, the load's progress, Reload or Stop: as Porthole's chrome shows them. */
static void chrome_follow(WebKitWebView *view, GParamSpec *pspec, gpointer data)
{
    (void)pspec;
    (void)data;
    const char *title = webkit_web_view_get_title(view);
    gtk_label_set_text(GTK_LABEL(title_label), title ? title : "");
    const char *uri = webkit_web_view_get_uri(view);
    GUri *parsed = uri ? g_uri_parse(uri, G_URI_FLAGS_NONE, NULL) : NULL;
    gtk_label_set_text(GTK_LABEL(subtitle_label), parsed && g_uri_get_host(parsed) ? g_uri_get_host(parsed) : "");
    if (parsed)
        g_uri_unref(parsed);
    gboolean loading = webkit_web_view_is_loading(view);
    gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(progress_bar), webkit_web_view_get_estimated_load_progress(view));
    gtk_stack_set_visible_child_name(GTK_STACK(progress_slot), loading ? "progress" : "rest");
    gtk_stack_set_visible_child_name(GTK_STACK(refresh_icons), loading ? "stop" : "reload");
}

static GtkWidget *chrome_build(GtkWidget *window, GtkWidget *view)
{
    gtk_window_set_icon_name(GTK_WINDOW(window), "dev.porthole.Porthole");
    GtkWidget *bar = gtk_header_bar_new();
    gtk_header_bar_set_show_close_button(GTK_HEADER_BAR(bar), TRUE);
    GtkWidget *titles = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_widget_set_valign(titles, GTK_ALIGN_CENTER);
    title_label = chrome_label("title");
    subtitle_label = chrome_label("subtitle");
    gtk_box_pack_start(GTK_BOX(titles), title_label, FALSE, FALSE, 0);
    gtk_box_pack_start(GTK_BOX(titles), subtitle_label, FALSE, FALSE, 0);
    gtk_header_bar_set_custom_title(GTK_HEADER_BAR(bar), titles);
    gtk_window_set_titlebar(GTK_WINDOW(window), bar);

    GtkWidget *navigation = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_style_context_add_class(gtk_widget_get_style_context(navigation), "linked");
    gtk_container_add(GTK_CONTAINER(navigation), chrome_icon_button("go-previous-symbolic", "Back", "Back (Alt+Left)"));
    gtk_container_add(GTK_CONTAINER(navigation), chrome_icon_button("go-next-symbolic", "Forward", "Forward (Alt+Right)"));
    gtk_header_bar_pack_start(GTK_HEADER_BAR(bar), navigation);

    GMenu *sites = g_menu_new();
    g_menu_append(sites, "Bench", "win.open-site(0)");
    GtkWidget *open = gtk_menu_button_new();
    GtkWidget *open_content = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
    gtk_container_add(GTK_CONTAINER(open_content), gtk_label_new("Open"));
    gtk_container_add(GTK_CONTAINER(open_content), gtk_image_new_from_icon_name("pan-down-symbolic", GTK_ICON_SIZE_BUTTON));
    gtk_container_remove(GTK_CONTAINER(open), gtk_bin_get_child(GTK_BIN(open)));
    gtk_container_add(GTK_CONTAINER(open), open_content);
    gtk_widget_set_tooltip_text(open, "Open an approved site");
    gtk_menu_button_set_menu_model(GTK_MENU_BUTTON(open), G_MENU_MODEL(sites));
    g_object_unref(sites);
    chrome_name(open, "Open");

    GMenu *primary = g_menu_new();
    GMenu *zoom = g_menu_new();
    const char *zoom_items[][3] = { { "Zoom out", "win.zoom-out", "zoom-out-symbolic" }, { "100%", "win.zoom-reset", NULL },
                                    { "Zoom in", "win.zoom-in", "zoom-in-symbolic" } };
    for (size_t i = 0; i < 3; i++) {
        GMenuItem *item = g_menu_item_new(zoom_items[i][0], zoom_items[i][1]);
        if (zoom_items[i][2])
            g_menu_item_set_attribute_value(item, "verb-icon", g_variant_new_string(zoom_items[i][2]));
        g_menu_append_item(zoom, item);
        g_object_unref(item);
    }
    GMenuItem *zoom_item = g_menu_item_new_section("Zoom", G_MENU_MODEL(zoom));
    g_menu_item_set_attribute_value(zoom_item, "display-hint", g_variant_new_string("horizontal-buttons"));
    g_menu_append_item(primary, zoom_item);
    g_object_unref(zoom_item);
    g_object_unref(zoom);
    chrome_section(primary, "Find…", "win.find", "Print…", "win.print");
    chrome_section(primary, "Keyboard Shortcuts", "win.shortcuts", "About", "win.about");
    GtkWidget *menu = gtk_menu_button_new();
    gtk_button_set_image(GTK_BUTTON(menu), gtk_image_new_from_icon_name("open-menu-symbolic", GTK_ICON_SIZE_BUTTON));
    gtk_widget_set_tooltip_text(menu, "Main menu");
    chrome_name(menu, "Main menu");
    gtk_menu_button_set_menu_model(GTK_MENU_BUTTON(menu), G_MENU_MODEL(primary));
    g_object_unref(primary);
    gtk_header_bar_pack_end(GTK_HEADER_BAR(bar), menu);
    gtk_header_bar_pack_end(GTK_HEADER_BAR(bar), open);

    GtkWidget *bottom = gtk_action_bar_new();
    progress_slot = gtk_stack_new();
    gtk_widget_set_hexpand(progress_slot, TRUE);
    progress_bar = gtk_progress_bar_new();
    gtk_widget_set_valign(progress_bar, GTK_ALIGN_CENTER);
    gtk_widget_show(progress_bar);
    gtk_stack_add_named(GTK_STACK(progress_slot), progress_bar, "progress");
    GtkWidget *rest = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_show(rest);
    gtk_stack_add_named(GTK_STACK(progress_slot), rest, "rest");
    gtk_action_bar_pack_start(GTK_ACTION_BAR(bottom), progress_slot);
    refresh_icons = gtk_stack_new();
    GtkWidget *reload = gtk_image_new_from_icon_name("view-refresh-symbolic", GTK_ICON_SIZE_BUTTON);
    GtkWidget *stop = gtk_image_new_from_icon_name("process-stop-symbolic", GTK_ICON_SIZE_BUTTON);
    gtk_widget_show(reload);
    gtk_widget_show(stop);
    gtk_stack_add_named(GTK_STACK(refresh_icons), reload, "reload");
    gtk_stack_add_named(GTK_STACK(refresh_icons), stop, "stop");
    GtkWidget *refresh = gtk_button_new();
    gtk_button_set_image(GTK_BUTTON(refresh), refresh_icons);
    gtk_widget_set_tooltip_text(refresh, "Reload (F5)");
    chrome_name(refresh, "Reload");
    gtk_action_bar_pack_end(GTK_ACTION_BAR(bottom), refresh);

    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_widget_set_vexpand(view, TRUE);
    gtk_box_pack_start(GTK_BOX(box), view, TRUE, TRUE, 0);
    gtk_box_pack_end(GTK_BOX(box), bottom, FALSE, FALSE, 0);
    g_signal_connect(view, "notify::title", G_CALLBACK(chrome_follow), NULL);
    g_signal_connect(view, "notify::uri", G_CALLBACK(chrome_follow), NULL);
    g_signal_connect(view, "notify::is-loading", G_CALLBACK(chrome_follow), NULL);
    g_signal_connect(view, "notify::estimated-load-progress", G_CALLBACK(chrome_follow), NULL);
    return box;
}

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
    gtk_container_add(GTK_CONTAINER(window), getenv("FLOOR_CHROME") ? chrome_build(window, view) : view);
    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), argv[1]);
    gtk_widget_show_all(window);
    gtk_main();
    return 0;
}
