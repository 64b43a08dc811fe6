// The zoom level shown over the page for a moment while it changes ("110 %").
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Shows the zoom level over the page for a moment while it changes.
@MainActor
final class ZoomIndicator {
    private let label: UnsafeMutablePointer<GtkWidget>
    private var timer: ScheduledSource?

    init(in overlay: UnsafeMutablePointer<GtkWidget>) {
        label = gtk_label_new("")
        let context = gtk_widget_get_style_context(label)
        gtk_style_context_add_class(context, "osd")
        gtk_style_context_add_class(context, "app-notification")
        gtk_widget_set_halign(label, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(label, GTK_ALIGN_END)
        gtk_widget_set_margin_bottom(label, 32)
        gtk_overlay_add_overlay(overlay.cast(), label)
        gtk_overlay_set_overlay_pass_through(overlay.cast(), label, 1)
        gtk_widget_set_no_show_all(label, 1)
    }

    var text: String? { gtk_widget_get_visible(label) != 0 ? gtk_label_get_text(label.cast()).map { String(cString: $0) } : nil }

    func show(_ level: Double) {
        gtk_label_set_text(label.cast(), ZoomLevels.percentage(level))
        gtk_widget_show(label)
        timer?.cancel()
        timer = MainLoop.after(milliseconds: 1500) { [weak self] in
            guard let self else { return }
            self.timer = nil
            gtk_widget_hide(self.label)
        }
    }

    func release() {
        timer?.cancel()
        timer = nil
    }
}
