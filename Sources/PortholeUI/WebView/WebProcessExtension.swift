// Loads Porthole's web process extension (the second enforcement layer) into every web process of
// a context, and keeps the policy it enforces current.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Where the extension library lives, relative to the running executable: beside an installed
/// binary (`PREFIX/bin/porthole` → `PREFIX/lib/porthole/web-extensions/`), or in the build
/// directory of a development build (`.build/debug/web-extensions/`, made by `make`).
enum WebProcessExtension {
    static let libraryName = "libPortholeWebExtension.so"

    /// Where WebKit keeps compiled content rules (the WebSocket rules): Porthole's cache directory.
    static let filterStorePath: String = (g_get_user_cache_dir().map { String(cString: $0) } ?? "/tmp") + "/porthole/content-filters"

    /// Where the library is looked for.
    static let candidates: [String] = {
        guard let exe = g_file_read_link("/proc/self/exe", nil) else { return [] }
        defer { g_free(exe) }
        let bin = g_path_get_dirname(exe)!
        defer { g_free(bin) }
        let binDirectory = String(cString: bin)
        return [binDirectory + "/../lib/porthole/web-extensions", binDirectory + "/web-extensions"]
    }()

    /// The first candidate holding the library, without `..` (`PREFIX/bin/../lib/…` would not
    /// resolve in the sandbox, where `PREFIX/bin` may not exist).
    static let directory: String? = candidates.first { g_file_test($0 + "/" + libraryName, G_FILE_TEST_IS_REGULAR) != 0 }
        .map { candidate in
            guard let real = realpath(candidate, nil) else { return candidate }
            defer { free(real) }
            return String(cString: real)
        }
}

extension BrowserEngine {
    /// What is missing from the installation: without the extension, pages would load with the
    /// first layer only (every subresource with `subresources=policy`), so the browser fails closed.
    public static var installationProblems: [ConfigProblem] {
        InstallationProblems.webExtension(found: WebProcessExtension.directory, candidates: WebProcessExtension.candidates)
    }
}

extension BrowserEngine {
    /// Points the context at the extension and hands each new web process the current policy.
    /// Called for each new context (before it starts a web process).
    func setUpWebProcessExtension(_ session: WebSession) {
        guard let directory = WebProcessExtension.directory else {
            // A problem of the configuration (see installationProblems): the browser fails closed.
            Log.write(.critical, "web process extension not found: the browser fails closed",
                      fields: ["PORTHOLE_EVENT": "web-extension-missing"])
            return
        }
        webkit_web_context_set_web_extensions_directory(session.context, directory)
        // Emitted before each web process starts, including those started after an idle reset
        // (a new context, maybe prepared ahead) and after a configuration reload: each gets the
        // policy of that moment. The handler goes with the session's context.
        session.contextOwner.connect("initialize-web-extensions", .plain { [weak self, weak session] in
            guard let self, let session else { return }
            webkit_web_context_set_web_extensions_initialization_user_data(session.context, self.webProcessPolicy.encoded())
        })
    }

    /// Running web processes get a new policy by a user message (asynchronous: a request the
    /// page sends before the message arrives meets the old policy, as in the UI process).
    func sendPolicyToWebProcesses() {
        // The next visitor's context too, when one is prepared (its page is thrown away on a new
        // configuration, but a web process it still runs keeps to the new policy meanwhile).
        for session in [current, next].compactMap({ $0 }) {
            let message = webkit_user_message_new(WebProcessPolicy.messageName, webProcessPolicy.encoded())
            webkit_web_context_send_message_to_all_extensions(session.context, message)
        }
        applyWebSocketRules()
    }

    /// WebSockets never pass send-request: with subresources=policy, content rules compiled from
    /// the policy refuse them in every view (all views share `userContentManager`). Compiling is
    /// asynchronous; until it finishes the previous rules stay in force.
    func applyWebSocketRules() {
        let manager: UnsafeMutablePointer<WebKitUserContentManager> = userContentManager
        guard let rules = webProcessPolicy.webSocketRules() else {
            webkit_user_content_manager_remove_all_filters(manager)
            return
        }
        let bytes = Array(rules.utf8)
        let source = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }  // g_bytes_new copies
        defer { g_bytes_unref(source) }
        let store = webkit_user_content_filter_store_new(WebProcessExtension.filterStorePath)!
        defer { g_object_unref(UnsafeMutableRawPointer(store)) }
        let box = FilterBox(manager: manager)
        webkit_user_content_filter_store_save(store, "porthole-websockets", source, nil, filterSaved,
                                              Unmanaged.passRetained(box).toOpaque())
    }
}

/// What a content filter compilation finishes into; holds the manager until then.
private final class FilterBox {
    let manager: UnsafeMutablePointer<WebKitUserContentManager>
    init(manager: UnsafeMutablePointer<WebKitUserContentManager>) {
        self.manager = manager
        g_object_ref(UnsafeMutableRawPointer(manager))
    }
    deinit { g_object_unref(UnsafeMutableRawPointer(manager)) }
}

/// `void (*GAsyncReadyCallback)(GObject *source, GAsyncResult *result, gpointer data)`.
private let filterSaved: GAsyncReadyCallback = { source, result, data in
    let box = Unmanaged<FilterBox>.fromOpaque(data!).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    let store = UnsafeMutableRawPointer(source!).assumingMemoryBound(to: WebKitUserContentFilterStore.self)
    guard let filter = webkit_user_content_filter_store_save_finish(store, result, &error) else {
        let message = GLibError.take(error)?.message ?? "unknown error"
        Log.write(.critical, "WebSocket rules did not compile: \(message)", fields: ["PORTHOLE_EVENT": "websocket-rules-failed"])
        return
    }
    webkit_user_content_manager_remove_all_filters(box.manager)
    webkit_user_content_manager_add_filter(box.manager, filter)
    webkit_user_content_filter_unref(filter)
}
