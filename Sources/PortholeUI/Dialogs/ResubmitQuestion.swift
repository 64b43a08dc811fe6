// Asks the visitor before a form is sent again (reloading the result of a POST): sending it twice
// can order, book or pay twice. PageSession holds the decision; this only asks and reports.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
public final class ResubmitQuestion {
    private let dialog: ObjectOwner
    private let connections = SignalConnections()
    private var answer: (@MainActor (Bool) -> Void)?

    /// The question open now, if any (tests answer it).
    public static private(set) var current: ResubmitQuestion?

    /// Asks over the window holding `view`; `answer` gets true for "send again", false for
    /// Cancel or a dialog closed otherwise. A question still open is answered "no" first.
    static func ask(over view: UnsafeMutablePointer<WebKitWebView>, answer: @escaping @MainActor (Bool) -> Void) {
        current?.respond(false)
        let widget = UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkWidget.self)
        current = ResubmitQuestion(over: gtk_widget_get_toplevel(widget), answer: answer)
    }

    private init(over window: UnsafeMutablePointer<GtkWidget>?, answer: @escaping @MainActor (Bool) -> Void) {
        self.answer = answer
        let question = tr("Send the form again?")
        let (widget, owner) = ModalDialog.make(title: question, over: window)
        dialog = owner
        let resend = gtk_dialog_add_button(widget.cast(), tr("Send Again"), GTK_RESPONSE_ACCEPT.rawValue)!
        gtk_style_context_add_class(gtk_widget_get_style_context(resend), "destructive-action")
        gtk_dialog_set_default_response(widget.cast(), GTK_RESPONSE_CANCEL.rawValue)
        let text = gtk_label_new(tr("This page shows the result of a form. Reloading it sends the form again, which could repeat an order, a booking or a payment."))!
        gtk_label_set_line_wrap(text.cast(), 1)
        gtk_label_set_max_width_chars(text.cast(), 50)
        gtk_label_set_xalign(text.cast(), 0)
        let content = gtk_dialog_get_content_area(widget.cast())!
        gtk_container_set_border_width(content.cast(), 18)
        gtk_box_set_spacing(content.cast(), 12)
        gtk_box_pack_start(content.cast(), ModalDialog.heading(question), 0, 0, 0)
        gtk_box_pack_start(content.cast(), text, 0, 0, 0)
        connections.connect(UnsafeMutableRawPointer(widget), "response", .enumValue { [unowned self] response in
            self.respond(Int32(bitPattern: response) == GTK_RESPONSE_ACCEPT.rawValue)
        })
        gtk_widget_show_all(widget)
    }

    /// Answers once, then closes the dialog.
    public func respond(_ resend: Bool) {
        let answer = self.answer
        self.answer = nil
        connections.disconnectAll()
        ModalDialog.destroy(dialog)
        if Self.current === self { Self.current = nil }
        answer?(resend)
    }
}
