// The in-window notice that a page's navigation was refused (or that a crashed page was reloaded):
// a small bar sliding down over the top of the page, in the window's GtkOverlay. Core's
// WindowSession decides what it says and when it shows and goes.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Shows and hides as the window says; never takes the keyboard focus (the person keeps typing
/// or scrolling the page while it shows). The overlay owns the widgets.
@MainActor
final class RefusalNoticeBar {
    private let revealer: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let icon: UnsafeMutablePointer<GtkWidget>

    /// `dismissed`: the close button was clicked.
    init(in overlay: UnsafeMutablePointer<GtkWidget>, connections: SignalConnections, dismissed: @escaping @MainActor () -> Void) {
        revealer = gtk_revealer_new()
        // No transition: without a compositor GTK's slide-down left an opaque panel of the
        // window's background below the card at the desk (issue 23, item 12) and never drew
        // the card in kiosk mode; NoticePanelTests reads both off the screen.
        gtk_revealer_set_transition_type(revealer.cast(), GTK_REVEALER_TRANSITION_TYPE_NONE)
        gtk_widget_set_halign(revealer, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(revealer, GTK_ALIGN_START)

        let frame = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        // GTK's own style for in-app notifications: a floating card at the top of the content.
        gtk_style_context_add_class(gtk_widget_get_style_context(frame), "app-notification")
        icon = gtk_image_new_from_icon_name(WindowNotice.refusalIcon, GTK_ICON_SIZE_BUTTON)
        label = gtk_label_new("")
        gtk_label_set_line_wrap(label.cast(), 1)
        gtk_label_set_max_width_chars(label.cast(), 60)
        gtk_label_set_xalign(label.cast(), 0)
        let close = gtk_button_new_from_icon_name("window-close-symbolic", GTK_ICON_SIZE_BUTTON)!
        gtk_button_set_relief(close.cast(), GTK_RELIEF_NONE)
        gtk_widget_set_focus_on_click(close, 0)
        gtk_widget_set_tooltip_text(close, tr("Dismiss"))
        Accessibility.setName(close, tr("Dismiss"))
        gtk_box_pack_start(frame.cast(), icon, 0, 0, 0)
        gtk_box_pack_start(frame.cast(), label, 1, 1, 0)
        gtk_box_pack_end(frame.cast(), close, 0, 0, 0)
        gtk_container_add(revealer.cast(), frame)
        if let accessible = gtk_widget_get_accessible(frame) { atk_object_set_role(accessible, ATK_ROLE_NOTIFICATION) }

        gtk_overlay_add_overlay(overlay.cast(), revealer)
        gtk_widget_show_all(revealer)
        gtk_revealer_set_reveal_child(revealer.cast(), 0)
        gtk_widget_hide(revealer)
        gtk_widget_set_no_show_all(revealer, 1)  // the window's show_all must not show it
        connections.connect(UnsafeMutableRawPointer(close), "clicked", .plain { dismissed() })
    }

    /// What the bar says while it shows, else nil.
    var shownText: String? { isVisible ? gtk_label_get_text(label.cast()).map { String(cString: $0) } : nil }
    var isVisible: Bool { gtk_widget_get_visible(revealer) != 0 }

    /// The icon the bar shows now.
    var iconName: String? {
        var name: UnsafePointer<gchar>?
        gtk_image_get_icon_name(icon.cast(), &name, nil)
        return name.map { String(cString: $0) }
    }

    func show(_ notice: WindowNotice) {
        gtk_image_set_from_icon_name(icon.cast(), notice.icon, GTK_ICON_SIZE_BUTTON)
        gtk_label_set_text(label.cast(), notice.text)
        gtk_widget_show(revealer)
        gtk_revealer_set_reveal_child(revealer.cast(), 1)
    }

    func hide() {
        gtk_revealer_set_reveal_child(revealer.cast(), 0)
        gtk_widget_hide(revealer)
    }
}
