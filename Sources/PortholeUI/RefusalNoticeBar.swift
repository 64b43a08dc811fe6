// The in-window notice that a page's navigation was refused (or that a crashed page was reloaded):
// a small bar sliding down over the top of the page, in the window's GtkOverlay. Core's
// RefusalNoticeState decides when a refusal notice shows and goes.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Shows and hides itself as RefusalNoticeState answers; never takes the keyboard focus (the
/// person keeps typing or scrolling the page while it shows). The overlay owns the widgets.
@MainActor
final class RefusalNoticeBar {
    private let revealer: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let icon: UnsafeMutablePointer<GtkWidget>
    private var state = RefusalNoticeState()
    private var timer: ScheduledSource?
    /// A one-off message (not a refusal) is showing; the next page takes it away.
    private var informing = false

    init(in overlay: UnsafeMutablePointer<GtkWidget>, connections: SignalConnections) {
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
        icon = gtk_image_new_from_icon_name(Self.refusalIcon, GTK_ICON_SIZE_BUTTON)
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
        connections.connect(UnsafeMutableRawPointer(close), "clicked", .plain { [weak self] in self?.dismiss() })
    }

    /// What the refusal notice says while it shows, else nil.
    var text: String? { state.shown?.text }
    /// Whatever the bar says while it shows, else nil.
    var shownText: String? { isVisible ? gtk_label_get_text(label.cast()).map { String(cString: $0) } : nil }
    var notice: RefusalNotice? { state.shown }
    var isVisible: Bool { gtk_widget_get_visible(revealer) != 0 }

    func refused(_ uri: String, from page: String?) {
        apply(state.refused(uri, from: page, at: Self.now()))
    }

    func pageChanged() {
        if informing { dismiss() }
        apply(state.pageChanged())
    }

    /// The refusal notice's icon; `inform` says other things with an icon of their own.
    static let refusalIcon = "action-unavailable-symbolic"
    /// The icon the bar shows now.
    var iconName: String? {
        var name: UnsafePointer<gchar>?
        gtk_image_get_icon_name(icon.cast(), &name, nil)
        return name.map { String(cString: $0) }
    }

    /// Shows `message` beside `iconName` for as long as a refusal notice would stay.
    func inform(_ message: String, icon iconName: String) {
        dismiss()
        informing = true
        gtk_image_set_from_icon_name(icon.cast(), iconName, GTK_ICON_SIZE_BUTTON)
        gtk_label_set_text(label.cast(), message)
        gtk_widget_show(revealer)
        gtk_revealer_set_reveal_child(revealer.cast(), 1)
        timer = MainLoop.after(milliseconds: Countdown.milliseconds(state.visibleFor)) { [weak self] in
            self?.timer = nil
            self?.dismiss()
        }
    }

    func dismiss() {
        informing = false
        timer?.cancel()
        timer = nil
        state = RefusalNoticeState(visibleFor: state.visibleFor, burstGap: state.burstGap)
        hide()
    }

    func release() {
        timer?.cancel()
        timer = nil
    }

    private static func now() -> Double { GLibClock.monotonicNow }

    private func apply(_ action: RefusalNoticeState.Action) {
        switch action {
        case .none: return
        case .show(let notice), .update(let notice):
            gtk_image_set_from_icon_name(icon.cast(), Self.refusalIcon, GTK_ICON_SIZE_BUTTON)
            gtk_label_set_text(label.cast(), notice.text)
            gtk_widget_show(revealer)
            gtk_revealer_set_reveal_child(revealer.cast(), 1)
        case .hide:
            hide()
        }
        scheduleTick()
    }

    private func hide() {
        gtk_revealer_set_reveal_child(revealer.cast(), 0)
        gtk_widget_hide(revealer)
    }

    private func scheduleTick() {
        timer?.cancel()
        timer = nil
        guard let due = state.nextTick else { return }
        let delay = max(0, due - Self.now())
        timer = MainLoop.after(milliseconds: Countdown.milliseconds(delay)) { [weak self] in
            guard let self else { return }
            self.timer = nil
            self.apply(self.state.tick(at: Self.now()))
        }
    }
}
