// The idle warning: a dimmed layer over the whole window (page, keyboard, bottom bar) with a
// countdown, in the window's outer GtkOverlay.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// A full-size overlay child, hidden until `show`. The overlay owns the widgets; this object
/// owns the CSS provider that styles them.
@MainActor
final class IdleWarning {
    private let box: UnsafeMutablePointer<GtkWidget>
    /// The overlay child: an event box around `box` that receives pointer and touch input.
    private let layer: UnsafeMutablePointer<GtkWidget>
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
        // The layer has its own input window covering the page, and a window only gets the
        // events it asks for: without these, moving the mouse or scrolling over the warning
        // reached nobody and the countdown went on (the kiosk's input hook sees them here).
        let catcher = gtk_event_box_new()!
        gtk_widget_add_events(catcher, gint(GDK_POINTER_MOTION_MASK.rawValue | GDK_BUTTON_PRESS_MASK.rawValue | GDK_SCROLL_MASK.rawValue
                                            | GDK_SMOOTH_SCROLL_MASK.rawValue | GDK_TOUCH_MASK.rawValue))
        gtk_container_add(catcher.cast(), box)
        // A provider added to a style context styles that widget only, so each gets it.
        for (widget, styleClass) in [(box, "porthole-idle-warning"), (title, "porthole-idle-title"), (text, "porthole-idle-text")] {
            let context = gtk_widget_get_style_context(widget)
            gtk_style_context_add_class(context, styleClass)
            gtk_style_context_add_provider(context, OpaquePointer(css.pointer), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        }
        gtk_style_context_add_provider(gtk_widget_get_style_context(inner), OpaquePointer(css.pointer), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        layer = catcher
        gtk_overlay_add_overlay(overlay.cast(), catcher)
        gtk_widget_show_all(catcher)
        gtk_widget_hide(catcher)
        gtk_widget_set_no_show_all(catcher, 1)  // the window's show_all must not show it
    }

    var isVisible: Bool { gtk_widget_get_visible(layer) != 0 }
    var message: String { gtk_label_get_text(text.cast()).map { String(cString: $0) } ?? "" }

    func show(secondsLeft: Int) {
        update(secondsLeft: secondsLeft)
        gtk_widget_show(layer)
    }

    func update(secondsLeft: Int) {
        gtk_label_set_text(text.cast(), IdleSession.warningText(secondsLeft: secondsLeft))
    }

    func hide() { gtk_widget_hide(layer) }

    func release() { css.release() }
}
