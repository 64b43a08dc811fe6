// The header bar's title and subtitle: two labels of our own, set as the bar's custom title.
import CWebKitGtk

/// The page's title over its host, made and styled as GtkHeaderBar makes its own (the `title`
/// and `subtitle` style classes, one line each, ellipsized, at least five characters wide,
/// centred over the window).
///
/// Why not `gtk_header_bar_set_title`: GTK 3's bar lays itself out again for every new title
/// (every button in it re-allocated and repainted), and a page's title changes twice a load
/// ("Loading…", then the page's). A label of our own asks only its own line again. Measured in
/// the UI process over a 200-link chain under callgrind: 8.2–9.2 million instructions a link with
/// the bar's title, 5.1–5.8 with these labels (the floor's whole UI process: 2.0).
@MainActor
final class HeaderTitle {
    let box: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let subtitle: UnsafeMutablePointer<GtkWidget>

    init() {
        box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_set_valign(box, GTK_ALIGN_CENTER)
        title = Self.label(styleClass: "title")
        subtitle = Self.label(styleClass: "subtitle")
        gtk_box_pack_start(box.cast(), title, 0, 0, 0)
        gtk_box_pack_start(box.cast(), subtitle, 0, 0, 0)
    }

    private static func label(styleClass: String) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(nil)!
        gtk_style_context_add_class(gtk_widget_get_style_context(label), styleClass)
        gtk_label_set_single_line_mode(label.cast(), 1)
        gtk_label_set_ellipsize(label.cast(), PANGO_ELLIPSIZE_END)
        gtk_label_set_width_chars(label.cast(), 5)
        return label
    }

    /// The title line's text ("" before the first title).
    var titleText: String { String(cString: gtk_label_get_text(title.cast())) }
    /// The subtitle line's text, nil when it is empty (its line stays, as with the bar's own).
    var subtitleText: String? {
        let text = String(cString: gtk_label_get_text(subtitle.cast()))
        return text.isEmpty ? nil : text
    }

    func setTitle(_ text: String) { gtk_label_set_text(title.cast(), text) }
    func setSubtitle(_ text: String?) { gtk_label_set_text(subtitle.cast(), text ?? "") }
}
