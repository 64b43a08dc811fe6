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
        // Enter keeps the form unsent: sending it again is the answer that cannot be undone.
        let (widget, owner) = ModalDialog.make(title: question, over: window, answer: tr("Send Again"), style: .destructive,
                                               defaultResponse: GTK_RESPONSE_CANCEL)
        dialog = owner
        let text = ModalDialog.paragraph(tr("This page shows the result of a form. Reloading it sends the form again, which could repeat an order, a booking or a payment."), width: 50)
        gtk_box_pack_start(ModalDialog.body(of: widget, heading: question).cast(), text, 0, 0, 0)
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
