// The idle warning: a dimmed layer over the whole window (page, keyboard, bottom bar) with a
// countdown and a More time button, in the window's outer GtkOverlay.
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
    /// Keeps the session (WCAG 2.2.1): a large button, as any key or touch does too.
    let moreTimeButton: UnsafeMutablePointer<GtkWidget>
    private let css: ObjectOwner
    private let connections = SignalConnections()

    private static let style = """
        .porthole-idle-warning { background-color: rgba(20, 20, 20, 0.82); }
        .porthole-idle-warning label { color: #ffffff; }
        .porthole-idle-title { font-size: 32pt; font-weight: bold; }
        .porthole-idle-text { font-size: 18pt; }
        .porthole-idle-more { font-size: 20pt; font-weight: bold; min-height: 64px; min-width: 240px; padding: 8px 32px; }
        """

    /// Above the application's screen-wide styles (Larger text sizes every label), so the
    /// warning keeps its own large type.
    private static let stylePriority = guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION) + 1

    /// `onMoreTime` runs when the More time button is pressed, touched, or activated by an
    /// assistive technology's action.
    init(in overlay: UnsafeMutablePointer<GtkWidget>, onMoreTime: @escaping @MainActor () -> Void) {
        css = ObjectOwner(adopting: UnsafeMutableRawPointer(gtk_css_provider_new()))
        gtk_css_provider_load_from_data(css.typed(), Self.style, -1, nil)
        box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 24)
        title = gtk_label_new(IdleSession.warningTitle())
        text = gtk_label_new("")
        gtk_label_set_line_wrap(text.cast(), 1)
        gtk_label_set_justify(text.cast(), GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(text.cast(), 40)
        let hint = gtk_label_new(IdleSession.moreTimeHint())!
        gtk_label_set_line_wrap(hint.cast(), 1)
        gtk_label_set_justify(hint.cast(), GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(hint.cast(), 40)
        moreTimeButton = gtk_button_new_with_label(IdleSession.moreTimeLabel())
        gtk_widget_set_halign(moreTimeButton, GTK_ALIGN_CENTER)
        Accessibility.setName(moreTimeButton, IdleSession.moreTimeLabel())
        Accessibility.setDescription(moreTimeButton, IdleSession.moreTimeHint())
        let inner = gtk_box_new(GTK_ORIENTATION_VERTICAL, 24)!
        gtk_widget_set_valign(inner, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(inner, GTK_ALIGN_CENTER)
        gtk_box_pack_start(inner.cast(), title, 0, 0, 0)
        gtk_box_pack_start(inner.cast(), text, 0, 0, 0)
        gtk_box_pack_start(inner.cast(), hint, 0, 0, 0)
        gtk_box_pack_start(inner.cast(), moreTimeButton, 0, 0, 0)
        gtk_box_pack_start(box.cast(), inner, 1, 1, 0)
        // The layer has its own input window covering the page, and a window only gets the
        // events it asks for: without these, moving the mouse or scrolling over the warning
        // reached nobody and the countdown went on (the kiosk's input hook sees them here).
        let catcher = gtk_event_box_new()!
        gtk_widget_add_events(catcher, gint(GDK_POINTER_MOTION_MASK.rawValue | GDK_BUTTON_PRESS_MASK.rawValue | GDK_SCROLL_MASK.rawValue
                                            | GDK_SMOOTH_SCROLL_MASK.rawValue | GDK_TOUCH_MASK.rawValue))
        gtk_container_add(catcher.cast(), box)
        // A provider added to a style context styles that widget only, so each gets it.
        for (widget, styleClass) in [(box, "porthole-idle-warning"), (title, "porthole-idle-title"), (text, "porthole-idle-text"),
                                     (hint, "porthole-idle-text"), (moreTimeButton, "porthole-idle-more")] {
            let context = gtk_widget_get_style_context(widget)
            gtk_style_context_add_class(context, styleClass)
            gtk_style_context_add_provider(context, OpaquePointer(css.pointer), Self.stylePriority)
        }
        gtk_style_context_add_provider(gtk_widget_get_style_context(inner), OpaquePointer(css.pointer), Self.stylePriority)
        layer = catcher
        gtk_overlay_add_overlay(overlay.cast(), catcher)
        gtk_widget_show_all(catcher)
        gtk_widget_hide(catcher)
        gtk_widget_set_no_show_all(catcher, 1)  // the window's show_all must not show it
        // Pointer and touch presses reach the kiosk as `isMoreTime` first; this is for the
        // keyboard's Space and an assistive technology's click action.
        connections.connect(UnsafeMutableRawPointer(moreTimeButton), "clicked", .plain { onMoreTime() })
    }

    /// Whether `event`, seen on `widget` before anyone handles it, presses More time: a click or a
    /// touch on the button, or Enter or Space while it has the focus. The kiosk's input hook asks,
    /// because any input hides the warning at once, before the button could see its release.
    func isMoreTime(_ event: UnsafeMutablePointer<GdkEvent>, on widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard isVisible else { return false }
        switch event.pointee.type {
        case GDK_BUTTON_PRESS, GDK_TOUCH_BEGIN:
            return widget == moreTimeButton || gtk_widget_is_ancestor(widget, moreTimeButton) != 0
        case GDK_KEY_PRESS:
            let key = event.pointee.key.keyval
            return gtk_widget_has_focus(moreTimeButton) != 0
                && [UInt32(GDK_KEY_Return), UInt32(GDK_KEY_KP_Enter), UInt32(GDK_KEY_space), UInt32(GDK_KEY_KP_Space)].contains(key)
        default:
            return false
        }
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

    func release() {
        connections.disconnectAll()
        css.release()
    }
}
