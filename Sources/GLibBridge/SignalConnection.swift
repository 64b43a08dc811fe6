// Signal connections with Swift closures: the box lives exactly as long as the GLib connection.
import CGLib

/// Holds one Swift closure for one signal connection. Retained by the connection (passed as
/// `data` with `passRetained`) and released by `releaseBox` when GLib drops the closure:
/// on disconnect or when the instance is finalized.
final class ClosureBox<Handler> {
    let handler: Handler
    init(_ handler: Handler) { self.handler = handler }

    static func unwrap(_ data: gpointer?) -> Handler {
        Unmanaged<ClosureBox<Handler>>.fromOpaque(data!).takeUnretainedValue().handler
    }
}

/// `GClosureNotify`: `void (*)(gpointer data, GClosure *closure)`. Balances the `passRetained`.
private let releaseBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

// One trampoline per signal shape. Each runs on the GTK main thread (GLib emits signals on the
// thread that owns the main context) and enters Swift with MainActor.assumeIsolated. The C
// pointers it forwards are marked nonisolated(unsafe): they arrive on the main thread and are
// only used there, which the compiler cannot see through a C callback.

/// `void (*)(gpointer instance, gpointer data)`: "clicked", "activate", "changed", "destroy".
private let plainTrampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
    let handler = ClosureBox<@MainActor () -> Void>.unwrap(data)
    MainActor.assumeIsolated { handler() }
}

/// `void (*)(gpointer instance, gpointer argument, gpointer data)`: "notify::NAME" (GParamSpec*),
/// GSimpleAction "activate" (GVariant*), "size-allocate" and other one-pointer signals.
private let pointerTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
    nonisolated(unsafe) let argument = argument
    let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?) -> Void>.unwrap(data)
    MainActor.assumeIsolated { handler(argument) }
}

/// `void (*)(gpointer instance, gpointer first, gpointer second, gpointer data)`:
/// WebKitBackForwardList "changed" (WebKitBackForwardListItem* added, GList* removed).
private let twoPointersTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?) -> Void = { _, first, second, data in
    nonisolated(unsafe) let first = first
    nonisolated(unsafe) let second = second
    let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void>.unwrap(data)
    MainActor.assumeIsolated { handler(first, second) }
}

/// `void (*)(gpointer instance, guint value, gpointer data)`: signals with one enum argument,
/// such as WebKitWebView "load-changed" (WebKitLoadEvent) and "web-process-terminated", and
/// other one-int arguments of the same size: GtkDialog "response" (gint, passed as its bit
/// pattern) and GNetworkMonitor "network-changed" (gboolean).
private let enumTrampoline: @convention(c) (gpointer?, guint, gpointer?) -> Void = { _, value, data in
    let handler = ClosureBox<@MainActor (UInt32) -> Void>.unwrap(data)
    MainActor.assumeIsolated { handler(value) }
}

/// `gboolean (*)(gpointer instance, gpointer argument, gpointer data)`: event signals such as
/// "button-press-event" (GdkEvent*) and "delete-event", "context-menu"-like handlers.
private let pointerBoolTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, argument, data in
    nonisolated(unsafe) let argument = argument
    let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?) -> Bool>.unwrap(data)
    return MainActor.assumeIsolated { handler(argument) } ? 1 : 0
}

/// `gboolean (*)(gpointer instance, gpointer first, gpointer second, gpointer data)`:
/// WebKitWebPage "send-request" (WebKitURIRequest*, WebKitURIResponse* redirected response).
private let twoPointersBoolTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?) -> gboolean = { _, first, second, data in
    nonisolated(unsafe) let first = first
    nonisolated(unsafe) let second = second
    let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Bool>.unwrap(data)
    return MainActor.assumeIsolated { handler(first, second) } ? 1 : 0
}

/// `gboolean (*)(gpointer instance, gpointer first, gpointer second, gpointer third, gpointer data)`:
/// WebKitWebView "context-menu" (WebKitContextMenu*, GdkEvent*, WebKitHitTestResult*).
private let threePointersBoolTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?, gpointer?) -> gboolean = { _, first, second, third, data in
    nonisolated(unsafe) let first = first
    nonisolated(unsafe) let second = second
    nonisolated(unsafe) let third = third
    let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Bool>.unwrap(data)
    return MainActor.assumeIsolated { handler(first, second, third) } ? 1 : 0
}

/// `gboolean (*)(gpointer instance, gpointer object, guint value, gpointer data)`: WebKitWebView
/// "decide-policy" (WebKitPolicyDecision*, WebKitPolicyDecisionType).
private let pointerEnumBoolTrampoline: @convention(c) (gpointer?, gpointer?, guint, gpointer?) -> gboolean = { _, object, value, data in
    nonisolated(unsafe) let object = object
    let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?, UInt32) -> Bool>.unwrap(data)
    return MainActor.assumeIsolated { handler(object, value) } ? 1 : 0
}

/// `gboolean (*)(gpointer instance, guint value, const gchar *text, GError *error, gpointer data)`:
/// WebKitWebView "load-failed" (WebKitLoadEvent, failing URI, GError*).
private let enumStringErrorBoolTrampoline: @convention(c) (gpointer?, guint, UnsafePointer<gchar>?, UnsafeMutablePointer<GError>?, gpointer?) -> gboolean = { _, value, text, error, data in
    let handler = ClosureBox<@MainActor (UInt32, String, GLibError?) -> Bool>.unwrap(data)
    let string = text.map { String(cString: $0) } ?? ""
    let swiftError = error.map { GLibError($0) }
    return MainActor.assumeIsolated { handler(value, string, swiftError) } ? 1 : 0
}

/// `gboolean (*)(gpointer instance, const gchar *text, gpointer object, guint flags, gpointer data)`:
/// WebKitWebView "load-failed-with-tls-errors" (failing URI, GTlsCertificate*, GTlsCertificateFlags).
private let stringPointerEnumBoolTrampoline: @convention(c) (gpointer?, UnsafePointer<gchar>?, gpointer?, guint, gpointer?) -> gboolean = { _, text, object, value, data in
    nonisolated(unsafe) let object = object
    let handler = ClosureBox<@MainActor (String, UnsafeMutableRawPointer?, UInt32) -> Bool>.unwrap(data)
    let string = text.map { String(cString: $0) } ?? ""
    return MainActor.assumeIsolated { handler(string, object, value) } ? 1 : 0
}

/// `gpointer (*)(gpointer instance, gpointer argument, gpointer data)`: WebKitWebView "create"
/// (WebKitNavigationAction* in, GtkWidget* out).
private let pointerPointerTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gpointer? = { _, argument, data in
    nonisolated(unsafe) let argument = argument
    let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?>.unwrap(data)
    // Raw pointers are not Sendable, so the result leaves the isolated scope through a local.
    nonisolated(unsafe) var result: gpointer?
    MainActor.assumeIsolated { result = handler(argument) }
    return result
}

/// `gint (*)(gpointer instance, gpointer argument, gpointer data)`: GApplication "command-line"
/// (GApplicationCommandLine*) and "handle-local-options" (GVariantDict*).
private let pointerIntTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gint = { _, argument, data in
    nonisolated(unsafe) let argument = argument
    let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?) -> Int32>.unwrap(data)
    return MainActor.assumeIsolated { handler(argument) }
}

/// `gboolean (*)(GtkWidget*, GdkDragContext*, gint x, gint y, guint time, gpointer data)`:
/// GtkWidget "drag-drop".
private let dragDropTrampoline: @convention(c) (gpointer?, gpointer?, gint, gint, guint, gpointer?) -> gboolean = { _, context, x, y, time, data in
    nonisolated(unsafe) let context = context
    let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?, Int32, Int32, UInt32) -> Bool>.unwrap(data)
    return MainActor.assumeIsolated { handler(context, x, y, time) } ? 1 : 0
}

/// `void (*)(GtkWidget*, GdkDragContext*, gint x, gint y, GtkSelectionData*, guint info, guint time,
/// gpointer data)`: GtkWidget "drag-data-received".
private let dragDataTrampoline: @convention(c) (gpointer?, gpointer?, gint, gint, gpointer?, guint, guint, gpointer?) -> Void = { _, context, _, _, selection, _, time, data in
    nonisolated(unsafe) let context = context
    nonisolated(unsafe) let selection = selection
    let handler = ClosureBox<@MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt32) -> Void>.unwrap(data)
    MainActor.assumeIsolated { handler(context, selection, time) }
}

/// `void (*)(GFileMonitor*, GFile* file, GFile* other_file, GFileMonitorEvent event, gpointer data)`:
/// GFileMonitor "changed".
private let fileChangedTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?, guint, gpointer?) -> Void = { _, _, _, event, data in
    let handler = ClosureBox<@MainActor (UInt32) -> Void>.unwrap(data)
    MainActor.assumeIsolated { handler(event) }
}

/// The Swift handler shapes a signal can be connected with, one per trampoline above.
public enum SignalHandler {
    case plain(@MainActor () -> Void)
    case pointer(@MainActor (UnsafeMutableRawPointer?) -> Void)
    case twoPointers(@MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void)
    case enumValue(@MainActor (UInt32) -> Void)
    case pointerReturningBool(@MainActor (UnsafeMutableRawPointer?) -> Bool)
    case twoPointersReturningBool(@MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Bool)
    case threePointersReturningBool(@MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Bool)
    case pointerEnumReturningBool(@MainActor (UnsafeMutableRawPointer?, UInt32) -> Bool)
    case enumStringErrorReturningBool(@MainActor (UInt32, String, GLibError?) -> Bool)
    case stringPointerEnumReturningBool(@MainActor (String, UnsafeMutableRawPointer?, UInt32) -> Bool)
    case pointerReturningPointer(@MainActor (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?)
    case pointerReturningInt(@MainActor (UnsafeMutableRawPointer?) -> Int32)
    /// GtkWidget "drag-drop": (GdkDragContext*, x, y, time) -> handled.
    case dragDrop(@MainActor (UnsafeMutableRawPointer?, Int32, Int32, UInt32) -> Bool)
    /// GtkWidget "drag-data-received": (GdkDragContext*, GtkSelectionData*, time).
    case dragDataReceived(@MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt32) -> Void)
    /// GFileMonitor "changed": the event (GFileMonitorEvent); the files are not needed.
    case fileChanged(@MainActor (UInt32) -> Void)

    /// The trampoline and the retained box for this handler.
    fileprivate var callbackAndData: (GCallback, gpointer) {
        switch self {
        case .plain(let f): return (unsafeBitCast(plainTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .pointer(let f): return (unsafeBitCast(pointerTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .twoPointers(let f): return (unsafeBitCast(twoPointersTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .enumValue(let f): return (unsafeBitCast(enumTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .pointerReturningBool(let f): return (unsafeBitCast(pointerBoolTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .twoPointersReturningBool(let f): return (unsafeBitCast(twoPointersBoolTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .threePointersReturningBool(let f): return (unsafeBitCast(threePointersBoolTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .pointerEnumReturningBool(let f): return (unsafeBitCast(pointerEnumBoolTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .enumStringErrorReturningBool(let f): return (unsafeBitCast(enumStringErrorBoolTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .stringPointerEnumReturningBool(let f): return (unsafeBitCast(stringPointerEnumBoolTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .pointerReturningPointer(let f): return (unsafeBitCast(pointerPointerTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .pointerReturningInt(let f): return (unsafeBitCast(pointerIntTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .dragDrop(let f): return (unsafeBitCast(dragDropTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .dragDataReceived(let f): return (unsafeBitCast(dragDataTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        case .fileChanged(let f): return (unsafeBitCast(fileChangedTrampoline, to: GCallback.self), Unmanaged.passRetained(ClosureBox(f)).toOpaque())
        }
    }
}

/// Connects `handler` to `signal` on `instance`. The closure's box is owned by the connection:
/// it is released when the handler is disconnected or the instance is finalized.
/// Returns the handler id (> 0), or 0 when the signal is unknown or its C signature is not the
/// handler's shape: a trampoline of the wrong shape would read arguments that are not there, so
/// it is never connected (and the mismatch is logged as critical).
@MainActor
@discardableResult
public func connectSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: SignalHandler) -> UInt {
    let type = porthole_instance_type(instance)
    if let expected = SignalShape(of: signal, on: type), expected != handler.shape {
        Log.write(.critical, "signal \(signal) of \(String(cString: g_type_name(type))) is \(expected), not \(handler.shape): not connected",
                  fields: ["PORTHOLE_EVENT": "signal-shape-mismatch", "PORTHOLE_SIGNAL": signal])
        return 0
    }
    let (callback, data) = handler.callbackAndData
    let id = g_signal_connect_data(instance, signal, callback, data, releaseBox, GConnectFlags(rawValue: 0))
    if id == 0 { Unmanaged<AnyObject>.fromOpaque(data).release() }
    if id != 0 { ConnectedSignal.seen.insert(ConnectedSignal(type: type, signal: signal, shape: handler.shape)) }
    return UInt(id)
}

/// A GError copied into Swift (the caller keeps ownership of the C error).
public struct GLibError: Error, Sendable, Equatable, CustomStringConvertible {
    public let domain: String
    public let code: Int32
    public let message: String

    public init(domain: String, code: Int32, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    public init(_ error: UnsafeMutablePointer<GError>) {
        domain = String(cString: g_quark_to_string(error.pointee.domain))
        code = error.pointee.code
        message = String(cString: error.pointee.message)
    }

    /// Copies and frees an error a GLib call returned through a `GError**`.
    public static func take(_ error: UnsafeMutablePointer<GError>?) -> GLibError? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return GLibError(error)
    }

    public var description: String { message }
}
