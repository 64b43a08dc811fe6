// The desk's link preview: the address of the link under the pointer, bottom left over the page,
// and whether it is on the list (LinkPreview in Core words it; the site policy decides).
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
final class LinkPreviewLabel {
    private let label: UnsafeMutablePointer<GtkWidget>

    init(in overlay: UnsafeMutablePointer<GtkWidget>) {
        label = gtk_label_new("")
        let context = gtk_widget_get_style_context(label)
        gtk_style_context_add_class(context, "osd")
        gtk_style_context_add_class(context, "app-notification")
        gtk_label_set_ellipsize(label.cast(), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_max_width_chars(label.cast(), 90)
        gtk_widget_set_halign(label, GTK_ALIGN_START)
        gtk_widget_set_valign(label, GTK_ALIGN_END)
        gtk_widget_set_margin_start(label, 6)
        gtk_widget_set_margin_bottom(label, 6)
        gtk_overlay_add_overlay(overlay.cast(), label)
        gtk_overlay_set_overlay_pass_through(overlay.cast(), label, 1)
        gtk_widget_set_no_show_all(label, 1)
    }

    /// What it shows now, nil while hidden.
    var text: String? { gtk_widget_get_visible(label) != 0 ? gtk_label_get_text(label.cast()).map { String(cString: $0) } : nil }

    /// Follows `view`'s mouse target; `decide` is the window's site policy.
    func watch(_ view: UnsafeMutablePointer<WebKitWebView>, connections: SignalConnections,
               decide: @escaping @MainActor (String) -> Bool) {
        connections.connect(UnsafeMutableRawPointer(view), "mouse-target-changed", .pointerEnum { [weak self] hit, _ in
            let result = hit.map { $0.assumingMemoryBound(to: WebKitHitTestResult.self) }
            let link = result.flatMap { webkit_hit_test_result_context_is_link($0) != 0 ? webkit_hit_test_result_get_link_uri($0) : nil }
                .map { String(cString: $0) }
            self?.show(LinkPreview.text(url: link, allowed: link.map(decide) ?? false))
        })
    }

    func show(_ text: String?) {
        guard let text else { return gtk_widget_hide(label) }
        gtk_label_set_text(label.cast(), text)
        gtk_widget_show(label)
    }
}
