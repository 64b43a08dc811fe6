// The channel an isolated-world script talks to Porthole on: the on-screen keyboard's focus
// watcher and the read-aloud mode's element watcher each have one.
import CWebKitGtk
import GLibBridge

@MainActor
enum ScriptMessageChannel {
    /// Registers the message handler `name` in the script world `world` on `manager` and hands
    /// each string message to `receive` (other values are dropped). False when `name` was already
    /// registered on that manager (the messages still arrive, once).
    static func open(_ manager: ObjectOwner, name: String, world: String, receive: @escaping @MainActor (String) -> Void) -> Bool {
        let registered = webkit_user_content_manager_register_script_message_handler_in_world(manager.typed(), name, world) != 0
        // `void (*)(WebKitUserContentManager *manager, WebKitJavascriptResult *result, gpointer data)`
        // in the webkit2gtk-4.1 API.
        manager.connect("script-message-received::\(name)", .pointer { result in
            guard let result else { return }
            let value = webkit_javascript_result_get_js_value(OpaquePointer(result))
            guard let value, jsc_value_is_string(value) != 0, let text = jsc_value_to_string(value) else { return }
            let message = String(cString: text)
            g_free(text)
            receive(message)
        })
        return registered
    }
}
