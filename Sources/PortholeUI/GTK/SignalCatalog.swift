// Every signal Porthole connects, with the handler shape it is connected with: one list, which a
// test checks against g_signal_query (connectSignal also refuses a mismatch at run time).
import CGStreamer
import CWebKitGtk
import GLibBridge

/// The signals of each GType Porthole handles. Add a signal here when you connect it: the test
/// (SignalCatalogTests) compares each entry with the real signal's return and parameter types.
public enum SignalCatalog {
    private static let plain = SignalHandler.plain { }.shape
    private static let pointer = SignalHandler.pointer { _ in }.shape
    private static let twoPointers = SignalHandler.twoPointers { _, _ in }.shape
    private static let enumValue = SignalHandler.enumValue { _ in }.shape
    private static let pointerReturningBool = SignalHandler.pointerReturningBool { _ in false }.shape
    private static let twoPointersReturningBool = SignalHandler.twoPointersReturningBool { _, _ in false }.shape
    private static let threePointersReturningBool = SignalHandler.threePointersReturningBool { _, _, _ in false }.shape
    private static let pointerEnumReturningBool = SignalHandler.pointerEnumReturningBool { _, _ in false }.shape
    private static let pointerEnum = SignalHandler.pointerEnum { _, _ in }.shape
    private static let enumStringErrorReturningBool = SignalHandler.enumStringErrorReturningBool { _, _, _ in false }.shape
    private static let stringPointerEnumReturningBool = SignalHandler.stringPointerEnumReturningBool { _, _, _ in false }.shape
    private static let pointerReturningPointer = SignalHandler.pointerReturningPointer { _ in nil }.shape
    private static let pointerReturningInt = SignalHandler.pointerReturningInt { _ in 0 }.shape
    private static let dragDrop = SignalHandler.dragDrop { _, _, _, _ in false }.shape
    private static let dragDataReceived = SignalHandler.dragDataReceived { _, _, _ in }.shape
    private static let fileChanged = SignalHandler.fileChanged { _ in }.shape

    @MainActor
    public static let all: [SignalDeclaration] = [
        // porthole: the application (PortholeApplication.swift).
        SignalDeclaration("GtkApplication", "handle-local-options", pointerReturningInt),
        SignalDeclaration("GtkApplication", "startup", plain),
        SignalDeclaration("GtkApplication", "notify::is-registered", pointer),
        SignalDeclaration("GtkApplication", "activate", plain),
        // porthole: the Chrome policy folder watched (ChromePolicyWatcher.swift).
        SignalDeclaration("GFileMonitor", "changed", fileChanged),
        SignalDeclaration("GtkApplication", "command-line", pointerReturningInt),
        SignalDeclaration("GtkApplication", "shutdown", plain),
        // GLibBridge: actions (SimpleAction.swift).
        SignalDeclaration("GSimpleAction", "activate", pointer),
        // The window (BrowserWindow.swift) and kiosk mode (KioskController.swift).
        SignalDeclaration("GtkApplicationWindow", "delete-event", pointerReturningBool),
        SignalDeclaration("GtkApplicationWindow", "destroy", plain),
        SignalDeclaration("GtkApplicationWindow", "key-press-event", pointerReturningBool),
        SignalDeclaration("GtkApplicationWindow", "window-state-event", pointerReturningBool),
        SignalDeclaration("GtkApplicationWindow", "map", plain),
        SignalDeclaration("GtkApplicationWindow", "unmap", plain),
        SignalDeclaration("GtkDialog", "response", enumValue),
        SignalDeclaration("GNetworkMonitor", "network-changed", enumValue),
        // The web view (WebViewCoordinator.swift).
        SignalDeclaration("WebKitWebView", "load-changed", enumValue),
        SignalDeclaration("WebKitWebView", "load-failed", enumStringErrorReturningBool),
        SignalDeclaration("WebKitWebView", "load-failed-with-tls-errors", stringPointerEnumReturningBool),
        SignalDeclaration("WebKitWebView", "decide-policy", pointerEnumReturningBool),
        SignalDeclaration("WebKitWebView", "create", pointerReturningPointer),
        SignalDeclaration("WebKitWebView", "mouse-target-changed", pointerEnum),  // LinkPreview.swift
        SignalDeclaration("WebKitWebView", "notify::estimated-load-progress", pointer),
        SignalDeclaration("WebKitWebView", "notify::title", pointer),
        SignalDeclaration("WebKitWebView", "notify::uri", pointer),
        SignalDeclaration("WebKitWebView", "notify::is-loading", pointer),
        SignalDeclaration("WebKitWebView", "web-process-terminated", enumValue),
        SignalDeclaration("WebKitWebView", "permission-request", pointerReturningBool),
        SignalDeclaration("WebKitWebView", "query-permission-state", pointerReturningBool),
        SignalDeclaration("WebKitWebView", "context-menu", threePointersReturningBool),
        SignalDeclaration("WebKitWebView", "print", pointerReturningBool),
        SignalDeclaration("WebKitWebView", "run-file-chooser", pointerReturningBool),
        SignalDeclaration("WebKitWebView", "button-press-event", pointerReturningBool),
        SignalDeclaration("WebKitWebView", "notify::is-web-process-responsive", pointer),
        SignalDeclaration("WebKitWebView", "drag-drop", dragDrop),
        SignalDeclaration("WebKitWebView", "drag-data-received", dragDataReceived),
        SignalDeclaration("WebKitWebView", "script-dialog", pointerReturningBool),
        SignalDeclaration("WebKitWebView", "authenticate", pointerReturningBool),
        SignalDeclaration("WebKitWebView", "scroll-event", pointerReturningBool),
        SignalDeclaration("WebKitWebView", "touch-event", pointerReturningBool),
        SignalDeclaration("WebKitWebView", "event", pointerReturningBool),
        SignalDeclaration("WebKitBackForwardList", "changed", twoPointers),
        SignalDeclaration("WebKitAuthenticationRequest", "cancelled", plain),
        SignalDeclaration("WebKitFindController", "counted-matches", enumValue),
        SignalDeclaration("WebKitFindController", "failed-to-find-text", plain),
        // The on-screen keyboard (Keyboard/): focus reports from the page, touchscreens coming and going.
        SignalDeclaration("WebKitUserContentManager", "script-message-received::portholeKeyboard", pointer),
        // The read-aloud mode (SpeechController.swift, SpeechWatcher.swift).
        SignalDeclaration("WebKitUserContentManager", "script-message-received::portholeSpeech", pointer),
        SignalDeclaration("GtkApplicationWindow", "set-focus", pointer),
        SignalDeclaration("GdkSeat", "device-added", pointer),
        SignalDeclaration("GdkSeat", "device-removed", pointer),
        // The window's find bar, menus and buttons (FindBar.swift, BrowserWindow.swift).
        SignalDeclaration("GtkButton", "clicked", plain),
        SignalDeclaration("GtkPopover", "closed", plain),
        // The idle warning's sound (WarningSound.swift).
        SignalDeclaration("GstBus", "message::eos", pointer),
        SignalDeclaration("GstBus", "message::error", pointer),
        SignalDeclaration("GtkSearchBar", "notify::search-mode-enabled", pointer),
        SignalDeclaration("GtkSearchEntry", "activate", plain),
        SignalDeclaration("GtkSearchEntry", "key-press-event", pointerReturningBool),
        SignalDeclaration("GtkSearchEntry", "next-match", plain),
        SignalDeclaration("GtkSearchEntry", "previous-match", plain),
        SignalDeclaration("GtkSearchEntry", "search-changed", plain),
        // The web context (BrowserEngine.swift, WebProcessExtension.swift).
        SignalDeclaration("WebKitWebContext", "download-started", pointer),
        SignalDeclaration("WebKitWebContext", "initialize-web-extensions", plain),
        // The web process extension (PortholeWebExtension), in each web process.
        SignalDeclaration("WebKitWebExtension", "page-created", pointer),
        SignalDeclaration("WebKitWebExtension", "user-message-received", pointer),
        SignalDeclaration("WebKitWebPage", "send-request", twoPointersReturningBool),
        SignalDeclaration("WebKitWebPage", "user-message-received", pointerReturningBool),
    ]

    /// Registers the types the catalog names, so g_type_from_name finds them (GLib registers a
    /// type when its get_type function first runs).
    public static func registerTypes() {
        // GStreamer's types (GstBus's message signal, GstMessage) exist once it is initialized,
        // as WarningSound does before it makes a pipeline.
        _ = gst_init_check(nil, nil, nil)
        for type in [gtk_application_get_type(), g_simple_action_get_type(), gtk_application_window_get_type(),
                     gtk_dialog_get_type(), g_network_monitor_get_type(), webkit_web_view_get_type(),
                     webkit_back_forward_list_get_type(), webkit_web_context_get_type(),
                     webkit_web_extension_get_type(), webkit_web_page_get_type(),
                     webkit_authentication_request_get_type(), webkit_find_controller_get_type(),
                     webkit_user_content_manager_get_type(), gdk_seat_get_type(), gtk_button_get_type(),
                     gtk_popover_get_type(), gtk_search_bar_get_type(), gtk_search_entry_get_type(), g_file_monitor_get_type(), gst_bus_get_type()] {
            // Kept referenced: a class or interface whose signals were looked up stays loaded.
            if g_type_fundamental(type) == GType(2 << G_TYPE_FUNDAMENTAL_SHIFT) {  // G_TYPE_INTERFACE
                _ = g_type_default_interface_ref(type)
            } else {
                _ = g_type_class_ref(type)
            }
        }
    }
}
