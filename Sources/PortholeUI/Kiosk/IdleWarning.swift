// The idle warning: a dimmed layer over the page with a countdown, in the window's GtkOverlay.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// A full-size overlay child, hidden until `show`. The overlay owns the widgets; this object
/// owns the CSS provider that styles them.
@MainActor
final class IdleWarning {
    private let box: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let text: UnsafeMutablePointer<GtkWidget>
    private let css: ObjectOwner

    private static let style = """
        .porthole-idle-warning { background-color: rgba(20, 20, 20, 0.82); }
        .porthole-idle-warning label { color: #ffffff; }
        .porthole-idle-title { font-size: 32pt; font-weight: bold; }
        .porthole-idle-text { font-size: 18pt; }
        """

    init(in overlay: UnsafeMutablePointer<GtkWidget>) {
        css = ObjectOwner(adopting: UnsafeMutableRawPointer(gtk_css_provider_new()))
        gtk_css_provider_load_from_data(css.typed(), Self.style, -1, nil)
        box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 24)
        title = gtk_label_new(IdleSession.warningTitle())
        text = gtk_label_new("")
        gtk_label_set_line_wrap(text.cast(), 1)
        gtk_label_set_justify(text.cast(), GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(text.cast(), 40)
        let inner = gtk_box_new(GTK_ORIENTATION_VERTICAL, 24)!
        gtk_widget_set_valign(inner, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(inner, GTK_ALIGN_CENTER)
        gtk_box_pack_start(inner.cast(), title, 0, 0, 0)
        gtk_box_pack_start(inner.cast(), text, 0, 0, 0)
        gtk_box_pack_start(box.cast(), inner, 1, 1, 0)
        // A provider added to a style context styles that widget only, so each gets it.
        for (widget, styleClass) in [(box, "porthole-idle-warning"), (title, "porthole-idle-title"), (text, "porthole-idle-text")] {
            let context = gtk_widget_get_style_context(widget)
            gtk_style_context_add_class(context, styleClass)
            gtk_style_context_add_provider(context, OpaquePointer(css.pointer), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        }
        gtk_style_context_add_provider(gtk_widget_get_style_context(inner), OpaquePointer(css.pointer), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        gtk_overlay_add_overlay(overlay.cast(), box)
        gtk_widget_show_all(box)
        gtk_widget_hide(box)
        gtk_widget_set_no_show_all(box, 1)  // the window's show_all must not show it
    }

    var isVisible: Bool { gtk_widget_get_visible(box) != 0 }
    var message: String { gtk_label_get_text(text.cast()).map { String(cString: $0) } ?? "" }

    func show(secondsLeft: Int) {
        update(secondsLeft: secondsLeft)
        gtk_widget_show(box)
    }

    func update(secondsLeft: Int) {
        gtk_label_set_text(text.cast(), IdleSession.warningText(secondsLeft: secondsLeft))
    }

    func hide() { gtk_widget_hide(box) }

    func release() { css.release() }
}
