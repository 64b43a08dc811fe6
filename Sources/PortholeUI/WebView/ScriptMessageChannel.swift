// The channel an isolated-world script talks to Porthole on: the on-screen keyboard's focus
// watcher and the read-aloud mode's element watcher each have one.
import CWebKitGtk
import GLibBridge

/// One web view's user script, in every frame of its own script world, and the message handler
/// it posts to. The view's user content manager is shared (the keyboard and speech each have a
/// script in it), so `detach()` removes this script and this handler only, then disconnects
/// before letting go of the manager.
@MainActor
final class ScriptMessageChannel {
    private let view: ObjectOwner
    private let manager: ObjectOwner
    private let name: String
    private let world: String
    /// False when `name` was already registered on that manager (the messages still arrive, once).
    let registered: Bool
    private let script: OpaquePointer?

    /// Registers the message handler `name` in the script world `world` on `view`'s manager, hands
    /// each string message to `receive` (other values are dropped) and adds `source` to run at
    /// document start in every frame, in that world.
    init(view: UnsafeMutablePointer<WebKitWebView>, name: String, world: String, source: String,
         receive: @escaping @MainActor (String) -> Void) {
        self.view = ObjectOwner(retaining: UnsafeMutableRawPointer(view))
        let manager = webkit_web_view_get_user_content_manager(view)!
        self.manager = ObjectOwner(retaining: UnsafeMutableRawPointer(manager))
        self.name = name
        self.world = world
        registered = webkit_user_content_manager_register_script_message_handler_in_world(manager, name, world) != 0
        // `void (*)(WebKitUserContentManager *manager, WebKitJavascriptResult *result, gpointer data)`
        // in the webkit2gtk-4.1 API.
        self.manager.connect("script-message-received::\(name)", .pointer { result in
            guard let result else { return }
            let value = webkit_javascript_result_get_js_value(OpaquePointer(result))
            guard let value, jsc_value_is_string(value) != 0, let text = jsc_value_to_string(value) else { return }
            let message = String(cString: text)
            g_free(text)
            receive(message)
        })
        script = webkit_user_script_new_for_world(source, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                                  WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, world, nil, nil)
        webkit_user_content_manager_add_script(manager, script)
    }

    var webView: UnsafeMutablePointer<WebKitWebView>? { view.typed() }

    func detach() {
        guard let manager = manager.typed(WebKitUserContentManager.self) else { return }
        if let script {
            webkit_user_content_manager_remove_script(manager, script)
            webkit_user_script_unref(script)
        }
        if registered { webkit_user_content_manager_unregister_script_message_handler_in_world(manager, name, world) }
        self.manager.release()
        view.release()
    }
}
