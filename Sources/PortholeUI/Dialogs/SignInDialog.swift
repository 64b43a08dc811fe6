// HTTP authentication: Porthole's own sign-in dialog in place of WebKit's, which names the host
// with a bogus ":0" port and offers "Remember password" even where nothing may be remembered.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Asks for a user name and password for one WebKitAuthenticationRequest, and answers it.
/// The credential is kept for the session at most (never saved); with `remembers` false (kiosk
/// mode, `ephemeral=true`) not even that.
@MainActor
final class SignInDialog {
    private let request: ObjectOwner
    private let dialog: ObjectOwner
    private let user: UnsafeMutablePointer<GtkWidget>
    private let password: UnsafeMutablePointer<GtkWidget>
    private let connections = SignalConnections()
    private var answered = false

    /// Shows the dialog for `request` over `window`. Returns false for requests it leaves to
    /// WebKit (client certificates and PINs).
    static func handle(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>, over window: UnsafeMutablePointer<GtkWidget>,
                       remembers: Bool, memory: Memory) -> Bool {
        switch webkit_authentication_request_get_scheme(request) {
        case WEBKIT_AUTHENTICATION_SCHEME_CLIENT_CERTIFICATE_REQUESTED, WEBKIT_AUTHENTICATION_SCHEME_CLIENT_CERTIFICATE_PIN_REQUESTED:
            return false
        default:
            memory.open?.answer(nil)
            memory.open = SignInDialog(request, over: window, remembers: remembers, memory: memory)
            return true
        }
    }

    /// One web view's sign-in state, held by its "authenticate" handler: its SignInMemory (Core)
    /// and the dialog open for it now. A new visitor session's new web view gets a new one, and
    /// one view's request never answers or closes another view's dialog.
    /// The memory owns its open dialog; the dialog's way back is weak, so the two never keep each
    /// other. A memory let go of (its view's handler disconnected) cancels the dialog it still has.
    @MainActor final class Memory {
        var value = SignInMemory()
        /// The dialog open for this view now, if any.
        fileprivate(set) var open: SignInDialog?
        /// Told when WebKit cancels a request of this view that Porthole had not answered.
        let withdrawn: () -> Void
        init(withdrawn: @escaping () -> Void = {}) { self.withdrawn = withdrawn }
        isolated deinit { open?.answer(nil) }
    }

    /// The widget names the inspection accessors find the dialog and its entries by (tests fill them in).
    static let dialogName = "porthole-sign-in"
    static let userEntryName = "porthole-sign-in-user"
    static let passwordEntryName = "porthole-sign-in-password"

    private let remembers: Bool
    private weak var memory: Memory?
    /// The proxy flag, host, port and realm this dialog answers for.
    private let key: String

    /// Basic authentication over plain HTTP sends the password readable by anyone on the way.
    private static func sendsInTheClear(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>) -> Bool {
        guard webkit_authentication_request_get_scheme(request) == WEBKIT_AUTHENTICATION_SCHEME_HTTP_BASIC,
              let origin = webkit_authentication_request_get_security_origin(request) else { return false }
        defer { webkit_security_origin_unref(origin) }
        return webkit_security_origin_get_protocol(origin).map { String(cString: $0) } == "http"
    }

    private init(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>, over window: UnsafeMutablePointer<GtkWidget>, remembers: Bool,
                 memory: Memory) {
        self.request = ObjectOwner(retaining: UnsafeMutableRawPointer(request))
        self.remembers = remembers
        self.memory = memory
        let question = tr("Sign in")
        let (widget, owner) = ModalDialog.make(title: question, over: window, answer: tr("Sign In"), style: .suggested,
                                               defaultResponse: GTK_RESPONSE_ACCEPT)
        dialog = owner
        gtk_widget_set_name(widget, Self.dialogName)

        let host = webkit_authentication_request_get_host(request).map { String(cString: $0) } ?? ""
        let realm = webkit_authentication_request_get_realm(request).map { String(cString: $0) } ?? ""
        key = "\(webkit_authentication_request_is_for_proxy(request)) \(host):\(webkit_authentication_request_get_port(request)) \(realm)"
        let prompt = webkit_authentication_request_is_for_proxy(request) != 0
            ? tr("The proxy {host} asks for a user name and password.") : tr("{host} asks for a user name and password.")
        let heading = ModalDialog.paragraph(prompt.replacing("{host}", with: host), width: 45)
        user = gtk_entry_new()
        gtk_widget_set_name(user, Self.userEntryName)
        Accessibility.setName(user, tr("User name"))
        gtk_entry_set_placeholder_text(user.cast(), tr("User name"))
        gtk_entry_set_activates_default(user.cast(), 1)
        password = gtk_entry_new()
        gtk_widget_set_name(password, Self.passwordEntryName)
        Accessibility.setName(password, tr("Password"))
        gtk_entry_set_placeholder_text(password.cast(), tr("Password"))
        gtk_entry_set_visibility(password.cast(), 0)
        gtk_entry_set_input_purpose(password.cast(), GTK_INPUT_PURPOSE_PASSWORD)
        gtk_entry_set_activates_default(password.cast(), 1)
        if let proposed = webkit_authentication_request_get_proposed_credential(request) {
            if let name = webkit_credential_get_username(proposed) { gtk_entry_set_text(user.cast(), name) }
            webkit_credential_free(proposed)
        }
        // A retry is WebKit's word that the server refused the last answer: say so, and keep the
        // user name typed then (WebKit proposes none for a credential that was never stored).
        let (retry, lastUser) = memory.value.opening(key, webKitSaysRetry: webkit_authentication_request_is_retry(request) != 0)
        if let lastUser, gtk_entry_get_text_length(user.cast()) == 0 { gtk_entry_set_text(user.cast(), lastUser) }
        let warnings = (retry ? [tr("The user name or password was wrong. Try again.")] : [])
            + (Self.sendsInTheClear(request) ? [tr("This connection is not secure: the password would be sent unencrypted.")] : [])

        let content = ModalDialog.body(of: widget, heading: question)
        gtk_box_pack_start(content.cast(), heading, 0, 0, 0)
        if !realm.isEmpty {
            let detail = gtk_label_new(realm)!
            gtk_label_set_xalign(detail.cast(), 0)
            gtk_label_set_ellipsize(detail.cast(), PANGO_ELLIPSIZE_END)
            gtk_style_context_add_class(gtk_widget_get_style_context(detail), "dim-label")
            gtk_box_pack_start(content.cast(), detail, 0, 0, 0)
        }
        if !warnings.isEmpty {
            let warning = ModalDialog.paragraph(warnings.joined(separator: "\n"), width: 45)
            gtk_style_context_add_class(gtk_widget_get_style_context(warning), "warning")
            gtk_box_pack_start(content.cast(), warning, 0, 0, 0)
        }
        gtk_box_pack_start(content.cast(), user, 0, 0, 0)
        gtk_box_pack_start(content.cast(), password, 0, 0, 0)

        connections.connect(UnsafeMutableRawPointer(widget), "response", .enumValue { [unowned self] response in
            let accepted = Int32(bitPattern: response) == GTK_RESPONSE_ACCEPT.rawValue
            self.answer(accepted ? (self.text(self.user), self.text(self.password)) : nil)
        })
        // The page went away (another load, the window closing), or WebKit took the request back
        // as its own load started (see SignInRecovery): nothing to answer any more; the page session hears of it.
        connections.connect(UnsafeMutableRawPointer(request), "cancelled", .plain { [unowned self] in
            let unanswered = !self.answered
            self.answered = true
            let memory = self.memory
            self.close()
            if unanswered { memory?.withdrawn() }
        })
        gtk_widget_show_all(widget)
        gtk_widget_grab_focus(gtk_entry_get_text_length(user.cast()) > 0 ? password : user)
    }

    /// Answers the request (with a credential, or cancelled) and closes the dialog.
    func answer(_ credential: (user: String, password: String)?) {
        if !answered, let request: UnsafeMutablePointer<WebKitAuthenticationRequest> = self.request.typed() {
            answered = true
            if let credential {
                memory?.value.answered(key, user: credential.user)
                let persistence = remembers ? WEBKIT_CREDENTIAL_PERSISTENCE_FOR_SESSION : WEBKIT_CREDENTIAL_PERSISTENCE_NONE
                let answer = webkit_credential_new(credential.user, credential.password, persistence)
                webkit_authentication_request_authenticate(request, answer)
                webkit_credential_free(answer)
            } else {
                webkit_authentication_request_cancel(request)
            }
        }
        close()
    }

    private func close() {
        connections.disconnectAll()
        ModalDialog.destroy(dialog)
        request.release()
        if memory?.open === self { memory?.open = nil }
    }

    private func text(_ entry: UnsafeMutablePointer<GtkWidget>) -> String {
        gtk_entry_get_text(entry.cast()).map { String(cString: $0) } ?? ""
    }
}
