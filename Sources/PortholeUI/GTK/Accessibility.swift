// Accessible names for widgets whose meaning is an icon (screen readers read the name).
import CWebKitGtk
import PortholeCore

@MainActor
enum Accessibility {
    /// Gives `widget` the accessible name `name` (already translated).
    static func setName(_ widget: UnsafeMutablePointer<GtkWidget>, _ name: String) {
        if let accessible = gtk_widget_get_accessible(widget) { atk_object_set_name(accessible, name) }
    }

    /// Gives `widget` the accessible description `text` (already translated): what it does, read
    /// after its name.
    static func setDescription(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        if let accessible = gtk_widget_get_accessible(widget) { atk_object_set_description(accessible, text) }
    }

    /// Names the web view's own accessible (a focusable scroll pane that GTK leaves unnamed): a
    /// screen reader says where the focus is before it reads the page's document and its title.
    static func nameWebView(_ widget: UnsafeMutablePointer<GtkWidget>) {
        // TRANSLATORS: what a screen reader calls the area of the window that shows the page.
        setName(widget, tr("Web page"))
    }
}
