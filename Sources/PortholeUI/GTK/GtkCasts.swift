// The GTK cast macros (GTK_WINDOW(widget), GTK_ENTRY(widget), …) for the widget types PortholeUI
// uses: a closed, internal set, each checked against the widget's real type in debug builds.
import CWebKitGtk

extension UnsafeMutablePointer where Pointee == GtkWidget {
    func cast() -> UnsafeMutablePointer<GtkWindow> { checked(gtk_window_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkDialog> { checked(gtk_dialog_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkContainer> { checked(gtk_container_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkBin> { checked(gtk_bin_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkBox> { checked(gtk_box_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkHeaderBar> { checked(gtk_header_bar_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkActionBar> { checked(gtk_action_bar_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkButton> { checked(gtk_button_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkToggleButton> { checked(gtk_toggle_button_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkMenuButton> { checked(gtk_menu_button_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkImage> { checked(gtk_image_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkLabel> { checked(gtk_label_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkEntry> { checked(gtk_entry_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkProgressBar> { checked(gtk_progress_bar_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkOverlay> { checked(gtk_overlay_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkRevealer> { checked(gtk_revealer_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkGrid> { checked(gtk_grid_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkSearchBar> { checked(gtk_search_bar_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkInfoBar> { checked(gtk_info_bar_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkEventBox> { checked(gtk_event_box_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkPopover> { checked(gtk_popover_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkScrolledWindow> { checked(gtk_scrolled_window_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkAboutDialog> { checked(gtk_about_dialog_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkMenuShell> { checked(gtk_menu_shell_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkListBox> { checked(gtk_list_box_get_type()) }
    func cast() -> UnsafeMutablePointer<GtkStack> { checked(gtk_stack_get_type()) }
    /// GtkActionable is an interface GTK imports as an opaque pointer.
    func cast() -> OpaquePointer { OpaquePointer(self) }

    /// The widget as `T`, which must be the C struct of `type` (or of an ancestor of it).
    private func checked<T>(_ type: GType) -> UnsafeMutablePointer<T> {
        assert(g_type_check_instance_is_a(UnsafeMutableRawPointer(self).assumingMemoryBound(to: GTypeInstance.self), type) != 0,
               "not a \(String(cString: g_type_name(type)))")
        return UnsafeMutableRawPointer(self).assumingMemoryBound(to: T.self)
    }
}
