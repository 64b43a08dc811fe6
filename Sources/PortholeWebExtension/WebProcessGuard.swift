// Porthole's second enforcement layer: a WebKit web process extension that refuses, before it is
// sent, every request the site policy blocks (documents always; subresources with
// `[Policy] subresources=policy`).
import CWebKitWebExtension
import FontConfigPreload
import GLibBridge
import PortholeCore

/// The web process's copy of the policy and the pages it watches. One per web process.
@MainActor
final class WebProcessGuard {
    private var rules: WebProcessPolicy
    private var policy: SitePolicy
    private let connections = SignalConnections()

    init(rules: WebProcessPolicy) {
        self.rules = rules
        policy = rules.compile()
    }

    func attach(to webExtension: OpaquePointer) {
        let raw = UnsafeMutableRawPointer(webExtension)
        connections.connect(raw, "page-created", .pointer { [unowned self] page in
            guard let page else { return }
            self.watch(page)
        })
        // `void (*)(WebKitWebExtension*, WebKitUserMessage*)`: unlike WebKitWebView's signal of the
        // same name, the extension's returns nothing.
        connections.connect(raw, "user-message-received", .pointer { [unowned self] message in
            guard let message else { return }
            self.receive(message.assumingMemoryBound(to: WebKitUserMessage.self))
        })
    }

    private func watch(_ page: UnsafeMutableRawPointer) {
        // The UI process asks whether the page's main thread is alive: answered at once, so a
        // page whose script never returns (a busy loop) gives no answer.
        connections.connect(page, "user-message-received", .pointerReturningBool { message in
            guard let message = message?.assumingMemoryBound(to: WebKitUserMessage.self),
                  String(cString: webkit_user_message_get_name(message)) == WebProcessPolicy.questionName else { return false }
            webkit_user_message_send_reply(message, webkit_user_message_new(WebProcessPolicy.questionName, nil))
            return true
        })
        connections.connect(page, "send-request", .twoPointersReturningBool { [unowned self] request, _ in
            guard let request else { return true }
            return self.refuses(request.assumingMemoryBound(to: WebKitURIRequest.self),
                                page: page.assumingMemoryBound(to: WebKitWebPage.self))
        })
    }

    /// A new policy from the UI process (a reloaded configuration).
    private func receive(_ message: UnsafeMutablePointer<WebKitUserMessage>) {
        guard String(cString: webkit_user_message_get_name(message)) == WebProcessPolicy.messageName,
              let parameters = webkit_user_message_get_parameters(message),
              let rules = WebProcessPolicy(variant: parameters) else { return }
        self.rules = rules
        policy = rules.compile()
        Log.info("web process policy updated", fields: ["PORTHOLE_EVENT": "web-process-policy-updated"])
    }

    /// Whether `send-request` must cancel `request` (returning TRUE cancels it: nothing is sent).
    /// Redirects pass here again with the new URL, so every hop is decided.
    private func refuses(_ request: UnsafeMutablePointer<WebKitURIRequest>, page: UnsafeMutablePointer<WebKitWebPage>) -> Bool {
        let url = String(cString: webkit_uri_request_get_uri(request))
        let headers = webkit_uri_request_get_http_headers(request)
        let header = { (name: String) in headers.flatMap { soup_message_headers_get_one($0, name) }.map { String(cString: $0) } }
        let dest = header("Sec-Fetch-Dest")
        let destination = RequestDestination(secFetchDest: dest, accept: header("Accept"))
        if let reason = rules.unfollowableRefusal(contentType: header("Content-Type")) {
            Log.write(.message, "blocked \(url) in the web process: \(reason)",
                      fields: ["PORTHOLE_EVENT": "subresource-blocked", "PORTHOLE_LAYER": "web-process", "PORTHOLE_URL": url,
                               "PORTHOLE_FRAME": "subresource", "PORTHOLE_REASON": reason, "PORTHOLE_DESTINATION": dest ?? "",
                               "PORTHOLE_PAGE": webkit_web_page_get_uri(page).map { String(cString: $0) } ?? ""])
            return true
        }
        let pageURL = webkit_web_page_get_uri(page).map { String(cString: $0) }
        guard let refusal = rules.refusal(of: url, destination: destination, policy: policy,
                                          pageURL: pageURL, mainFrame: dest == "document") else { return false }
        // The UI process's frame names ("main", "subframe"), and the rest by what they load.
        let frame = switch dest {
        case "document": "main"
        case "iframe", "frame": "subframe"
        default: destination == .document ? "document" : "subresource"
        }
        let reason = refusal.description
        Log.write(.message, "blocked \(url) in the web process: \(reason)",
                  fields: ["PORTHOLE_EVENT": destination == .document ? "navigation-blocked" : "subresource-blocked",
                           "PORTHOLE_LAYER": "web-process", "PORTHOLE_URL": url, "PORTHOLE_FRAME": frame,
                           "PORTHOLE_REASON": reason, "PORTHOLE_DESTINATION": dest ?? "",
                           "PORTHOLE_PAGE": webkit_web_page_get_uri(page).map { String(cString: $0) } ?? ""])
        return true
    }
}

/// WebKit calls this once per web process, before any page exists. `userData` is what the UI
/// process set with webkit_web_context_set_web_extensions_initialization_user_data.
@c(webkit_web_extension_initialize_with_user_data)
public func initializeWebExtension(_ webExtension: OpaquePointer?, _ userData: OpaquePointer?) {
    // The web process loads fontconfig's configuration on its main thread after its EGL set-up,
    // on its way to the first request: here it starts on the other core first (FontConfigPreload.h).
    porthole_preload_fontconfig()
    guard let incoming = webExtension else { return }
    nonisolated(unsafe) let webExtension = incoming  // called on the web process's main thread, used there
    let rules = userData.flatMap(WebProcessPolicy.init(variant:)) ?? WebProcessPolicy(sites: [])
    MainActor.assumeIsolated {
        let processGuard = WebProcessGuard(rules: rules)
        processGuard.attach(to: webExtension)
        // Lives as long as the web process: the extension is never unloaded.
        _ = Unmanaged.passRetained(processGuard)
    }
}
