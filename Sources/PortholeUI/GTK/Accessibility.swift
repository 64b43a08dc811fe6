// Accessible names for widgets whose meaning is an icon (screen readers read the name).
import CWebKitGtk

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
}
