// The two halves every one of Porthole's own question dialogs shares: a modal GtkDialog over the
// window, owned by one ObjectOwner, and its destruction when answered.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
enum ModalDialog {
    /// A new modal, fixed-size dialog titled `title`, transient for `window` and destroyed with
    /// it, with a Cancel button and the answer button `answer` (GTK_RESPONSE_ACCEPT) styled
    /// `style`; Enter gives `defaultResponse`. The returned owner holds the one reference Porthole keeps.
    static func make(title: String, over window: UnsafeMutablePointer<GtkWidget>?, answer: String, style: ButtonStyle,
                     defaultResponse: GtkResponseType) -> (UnsafeMutablePointer<GtkWidget>, ObjectOwner) {
        let widget = gtk_dialog_new()!
        let owner = ObjectOwner(retaining: UnsafeMutableRawPointer(widget))
        gtk_window_set_title(widget.cast(), title)
        if let window { gtk_window_set_transient_for(widget.cast(), window.cast()) }
        gtk_window_set_modal(widget.cast(), 1)
        gtk_window_set_destroy_with_parent(widget.cast(), 1)
        gtk_window_set_resizable(widget.cast(), 0)
        gtk_dialog_add_button(widget.cast(), tr("Cancel"), GTK_RESPONSE_CANCEL.rawValue)
        addButton(answer, response: GTK_RESPONSE_ACCEPT, style: style, to: widget)
        gtk_dialog_set_default_response(widget.cast(), defaultResponse.rawValue)
        return (widget, owner)
    }

    /// How a dialog's answer button looks: the safe answer (suggested) or one that cannot be undone.
    enum ButtonStyle: String {
        case suggested = "suggested-action"
        case destructive = "destructive-action"
    }

    /// Adds the answer button `label` giving `response`, styled `style`, to `dialog`.
    @discardableResult
    static func addButton(_ label: String, response: GtkResponseType, style: ButtonStyle,
                          to dialog: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_dialog_add_button(dialog.cast(), label, response.rawValue)!
        gtk_style_context_add_class(gtk_widget_get_style_context(button), style.rawValue)
        return button
    }

    /// The dialog's body, spaced as every one of Porthole's dialogs is, with `question` as its heading.
    static func body(of dialog: UnsafeMutablePointer<GtkWidget>, heading question: String) -> UnsafeMutablePointer<GtkWidget> {
        let content = gtk_dialog_get_content_area(dialog.cast())!
        gtk_container_set_border_width(content.cast(), 18)
        gtk_box_set_spacing(content.cast(), 12)
        gtk_box_pack_start(content.cast(), heading(question), 0, 0, 0)
        return content
    }

    /// A left-aligned label wrapped at `width` characters, as the dialogs' explanations are.
    static func paragraph(_ text: String, width: Int32) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(text)!
        gtk_label_set_line_wrap(label.cast(), 1)
        gtk_label_set_max_width_chars(label.cast(), width)
        gtk_label_set_xalign(label.cast(), 0)
        return label
    }

    /// The dialog's question as a heading at the top of its body: without a window manager
    /// (cage, plain X) no title bar is drawn, so the window title alone is never seen. Large and
    /// bold, wrapped, read by screen readers as a heading; the dialog's name stays its title.
    static func heading(_ text: String) -> UnsafeMutablePointer<GtkWidget> {
        let label = paragraph(text, width: 40)
        let attributes = pango_attr_list_new()
        pango_attr_list_insert(attributes, pango_attr_weight_new(PANGO_WEIGHT_BOLD))
        pango_attr_list_insert(attributes, pango_attr_scale_new(1.2))
        gtk_label_set_attributes(label.cast(), attributes)
        pango_attr_list_unref(attributes)
        gtk_widget_set_name(label, headingName)
        if let accessible = gtk_widget_get_accessible(label) { atk_object_set_role(accessible, ATK_ROLE_HEADING) }
        return label
    }

    /// The widget name of every dialog's heading (tests find it by this name).
    static let headingName = "porthole-dialog-heading"

    /// Destroys the dialog `owner` holds and lets go of it (kept alive until destroy returns).
    static func destroy(_ owner: ObjectOwner) {
        guard let widget = owner.pointer else { return }
        g_object_ref(widget)
        owner.release()
        gtk_widget_destroy(widget.assumingMemoryBound(to: GtkWidget.self))
        g_object_unref(widget)
    }
}
