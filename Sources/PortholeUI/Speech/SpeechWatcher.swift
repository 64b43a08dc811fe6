// Tells the read-aloud mode what got focus or a touch in the page: a user script in every
// frame, in its own script world, describing the element from its accessibility semantics.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Watches one web view, as the keyboard's FocusWatcher does: its user content manager gets the
/// speech script and the message handler; `detach()` removes them (the script only, not the
/// keyboard's: each is removed by its own world's handler and `remove_script`).
///
/// The script runs in an isolated world, so a page's own scripts cannot see or replace its
/// listeners, and in every frame, so a field in an iframe is described by the iframe's copy.
/// It reports whether speech is on or not: deciding is the session's; a report costs one message.
@MainActor
final class SpeechWatcher {
    static let handlerName = "portholeSpeech"
    /// The speech world's own global the script puts its touch functions on (the page's
    /// scripts live in another world and cannot see it).
    static let apiName = "portholeSpeech"
    static let worldName = "porthole-speech"

    private let channel: ScriptMessageChannel

    /// `report` gets each description and live region change (`SpeechEvent(scriptMessage:)`).
    init(view: UnsafeMutablePointer<WebKitWebView>, report: @escaping @MainActor (SpeechEvent) -> Void) {
        channel = ScriptMessageChannel(view: view, name: Self.handlerName, world: Self.worldName, source: Self.source) { message in
            if let event = SpeechEvent(scriptMessage: message) { report(event) }
        }
        if !channel.registered { Log.warning("the speech handler is already registered on this web view") }
    }

    var webView: UnsafeMutablePointer<WebKitWebView>? { channel.webView }

    func detach() { channel.detach() }

    /// Runs `readScript` in the main frame's speech world and hands its text and the page's
    /// language to `done`.
    func readFromFocus(_ done: @escaping @MainActor (String, String?) -> Void) {
        evaluate(Self.readScript, done)
    }

    /// Has the script describe the element at `point` (the web view's widget pixels; the page's
    /// zoom taken out): a same-origin frame's element too. `explore`: only if it is not the
    /// element described last. The description comes back as a message, as a focused one does.
    func describe(at point: TouchPoint, explore: Bool) {
        guard let view = webView else { return }
        let zoom = max(0.1, webkit_web_view_get_zoom_level(view))
        evaluate("window.\(Self.apiName) && window.\(Self.apiName).at(\(point.x / zoom), \(point.y / zoom), \(explore))") { _, _ in }
    }

    /// Activates the element described last, in whichever same-origin frame it is: focuses it
    /// and clicks it (a link opens, a button presses, a field gets the on-screen keyboard).
    func activate() {
        evaluate("window.\(Self.apiName) && window.\(Self.apiName).activate()") { _, _ in }
    }

    /// The page's title and language, from the page itself: at load-finished WebKit's `title`
    /// may not have arrived from the web process yet.
    func titleAndLanguage(_ done: @escaping @MainActor (String, String?) -> Void) {
        evaluate("(document.documentElement.lang || '') + '\\n' + document.title", done)
    }

    private func evaluate(_ script: String, _ done: @escaping @MainActor (String, String?) -> Void) {
        guard let view = webView else { return }
        let box = Unmanaged.passRetained(ReadBox(done)).toOpaque()
        webkit_web_view_evaluate_javascript(view, script, -1, Self.worldName, nil, nil, textRead, box)
    }
}

/// `void (*GAsyncReadyCallback)(GObject *source, GAsyncResult *result, gpointer data)`.
private let textRead: GAsyncReadyCallback = { source, result, data in
    guard let incoming = data else { return }
    nonisolated(unsafe) let data = incoming  // the box, released on the main thread below
    nonisolated(unsafe) let view = source.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: WebKitWebView.self) }
    nonisolated(unsafe) let result = result  // delivered on the main thread, used there
    MainActor.assumeIsolated {
        let box = Unmanaged<ReadBox>.fromOpaque(data).takeRetainedValue()
        var error: UnsafeMutablePointer<GError>?
        var text = ""
        if let view, let value = webkit_web_view_evaluate_javascript_finish(view, result, &error) {
            if jsc_value_is_string(value) != 0, let string = jsc_value_to_string(value) {
                text = String(cString: string)
                g_free(string)
            }
            g_object_unref(UnsafeMutableRawPointer(value))
        }
        _ = GLibError.take(error)
        // The script answers "LANG\nTEXT".
        let newline = text.firstIndex(of: "\n")
        let language = newline.map { String(text[..<$0]) }.flatMap { $0.isEmpty ? nil : $0 }
        box.done(newline.map { String(text[text.index(after: $0)...]) } ?? text, language)
    }
}

private final class ReadBox {
    let done: @MainActor (String, String?) -> Void
    init(_ done: @escaping @MainActor (String, String?) -> Void) { self.done = done }
}
