// The two halves every one of Porthole's own question dialogs shares: a modal GtkDialog over the
// window, owned by one ObjectOwner, and its destruction when answered.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
enum ModalDialog {
    /// A new modal, fixed-size dialog titled `title`, transient for `window` and destroyed with
    /// it, with a Cancel button; the returned owner holds the one reference Porthole keeps.
    static func make(title: String, over window: UnsafeMutablePointer<GtkWidget>?) -> (UnsafeMutablePointer<GtkWidget>, ObjectOwner) {
        let widget = gtk_dialog_new()!
        let owner = ObjectOwner(retaining: UnsafeMutableRawPointer(widget))
        gtk_window_set_title(widget.cast(), title)
        if let window { gtk_window_set_transient_for(widget.cast(), window.cast()) }
        gtk_window_set_modal(widget.cast(), 1)
        gtk_window_set_destroy_with_parent(widget.cast(), 1)
        gtk_window_set_resizable(widget.cast(), 0)
        gtk_dialog_add_button(widget.cast(), tr("Cancel"), GTK_RESPONSE_CANCEL.rawValue)
        return (widget, owner)
    }

    /// Destroys the dialog `owner` holds and lets go of it (kept alive until destroy returns).
    static func destroy(_ owner: ObjectOwner) {
        guard let widget = owner.pointer else { return }
        g_object_ref(widget)
        owner.release()
        gtk_widget_destroy(widget.assumingMemoryBound(to: GtkWidget.self))
        g_object_unref(widget)
    }
}
