// The admin's way out of kiosk mode: a dialog that asks for the exit PIN.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// A modal GtkDialog over the kiosk window with a hidden-text entry. It reports the typed PIN
/// (or nil when cancelled) and leaves checking it to its owner.
@MainActor
final class ExitPinDialog {
    private let owner: ObjectOwner
    let entry: UnsafeMutablePointer<GtkWidget>
    private let status: UnsafeMutablePointer<GtkWidget>

    /// `onAnswer` gets the PIN, or nil when the dialog was cancelled or closed.
    init(over window: UnsafeMutablePointer<GtkWidget>, onAnswer: @escaping @MainActor (String?) -> Void) {
        let dialog = gtk_dialog_new()!
        // A toplevel is owned by GTK's list of toplevels until destroyed; this is a second reference.
        owner = ObjectOwner(retaining: UnsafeMutableRawPointer(dialog))
        let question = tr("Leave kiosk mode")
        gtk_window_set_title(dialog.cast(), question)
        gtk_window_set_transient_for(dialog.cast(), window.cast())
        gtk_window_set_modal(dialog.cast(), 1)
        gtk_window_set_keep_above(dialog.cast(), 1)
        gtk_window_set_resizable(dialog.cast(), 0)
        gtk_dialog_add_button(dialog.cast(), tr("Cancel"), GTK_RESPONSE_CANCEL.rawValue)
        gtk_dialog_add_button(dialog.cast(), trc("leave kiosk mode", "Leave"), GTK_RESPONSE_ACCEPT.rawValue)
        gtk_dialog_set_default_response(dialog.cast(), GTK_RESPONSE_ACCEPT.rawValue)

        entry = gtk_entry_new()
        gtk_entry_set_visibility(entry.cast(), 0)
        gtk_entry_set_input_purpose(entry.cast(), GTK_INPUT_PURPOSE_PIN)
        gtk_entry_set_activates_default(entry.cast(), 1)
        let prompt = gtk_label_new(tr("Enter the PIN to leave kiosk mode."))!
        Accessibility.setName(entry, tr("Exit PIN"))
        if let accessible = gtk_widget_get_accessible(entry), let label = gtk_widget_get_accessible(prompt) {
            atk_object_add_relationship(accessible, ATK_RELATION_LABELLED_BY, label)
        }
        status = gtk_label_new("")
        let content = gtk_dialog_get_content_area(dialog.cast())!
        gtk_box_set_spacing(content.cast(), 12)
        gtk_container_set_border_width(content.cast(), 18)
        gtk_box_pack_start(content.cast(), ModalDialog.heading(question), 0, 0, 0)
        gtk_box_pack_start(content.cast(), prompt, 0, 0, 0)
        gtk_box_pack_start(content.cast(), entry, 0, 0, 0)
        gtk_box_pack_start(content.cast(), status, 0, 0, 0)

        owner.connect("response", .enumValue { [unowned self] response in
            let pin = Int32(bitPattern: response) == GTK_RESPONSE_ACCEPT.rawValue ? self.text : nil
            onAnswer(pin)
        })
        gtk_widget_show_all(dialog)
        gtk_widget_grab_focus(entry)
    }

    func isWindow(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool { owner.pointer == UnsafeMutableRawPointer(widget) }

    var message: String { gtk_label_get_text(status.cast()).map { String(cString: $0) } ?? "" }
    private var text: String { gtk_entry_get_text(entry.cast()).map { String(cString: $0) } ?? "" }

    /// While the PIN is being checked: no typing, and a word saying why.
    func checking() {
        gtk_widget_set_sensitive(entry, 0)
        gtk_label_set_text(status.cast(), tr("Checking…"))
    }
    /// Replaces the status line (the lockout countdown) without touching the entry.
    func say(_ message: String) { gtk_label_set_text(status.cast(), message) }

    /// Says why the PIN was not accepted and clears the entry for the next try.
    func refuse(_ message: String) {
        gtk_widget_set_sensitive(entry, 1)
        gtk_label_set_text(status.cast(), message)
        gtk_entry_set_text(entry.cast(), "")
        gtk_widget_grab_focus(entry)
    }

    func present() {
        if let dialog: UnsafeMutablePointer<GtkWindow> = owner.typed() { gtk_window_present(dialog) }
    }

    /// Disconnects the handler and destroys the dialog. Safe to call twice.
    func close() {
        guard let dialog = owner.pointer else { return }
        g_object_ref(dialog)
        owner.release()
        gtk_widget_destroy(dialog.assumingMemoryBound(to: GtkWidget.self))
        g_object_unref(dialog)
    }
}
