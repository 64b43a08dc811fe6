// The GTK cast macros the tests need (GTK_WINDOW(widget), …), checked against the real type.
import CWebKitGtk

extension UnsafeMutablePointer where Pointee == GtkWidget {
    public func cast() -> UnsafeMutablePointer<GtkWindow> { checked(gtk_window_get_type()) }
    public func cast() -> UnsafeMutablePointer<GtkContainer> { checked(gtk_container_get_type()) }
    public func cast() -> UnsafeMutablePointer<GtkButton> { checked(gtk_button_get_type()) }
    public func cast() -> UnsafeMutablePointer<GtkToggleButton> { checked(gtk_toggle_button_get_type()) }
    public func cast() -> UnsafeMutablePointer<GtkMenuButton> { checked(gtk_menu_button_get_type()) }
    public func cast() -> UnsafeMutablePointer<GtkEntry> { checked(gtk_entry_get_type()) }
    public func cast() -> UnsafeMutablePointer<GtkLabel> { checked(gtk_label_get_type()) }

    private func checked<T>(_ type: GType) -> UnsafeMutablePointer<T> {
        precondition(g_type_check_instance_is_a(UnsafeMutableRawPointer(self).assumingMemoryBound(to: GTypeInstance.self), type) != 0,
                     "not a \(String(cString: g_type_name(type)))")
        return UnsafeMutableRawPointer(self).assumingMemoryBound(to: T.self)
    }
}

extension UnsafeMutablePointer where Pointee == GtkApplication {
    /// G_APPLICATION(application).
    public func cast() -> UnsafeMutablePointer<GApplication> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: GApplication.self)
    }
}
