// Emission hooks: a Swift closure told of every emission of one signal, on any instance.
import CGLib

/// Box for a hook's closure, released by the hook's GDestroyNotify when the hook is removed.
private final class HookBox {
    let handler: @MainActor (UnsafeMutableRawPointer?, [UnsafeMutableRawPointer?]) -> Void
    init(_ handler: @escaping @MainActor (UnsafeMutableRawPointer?, [UnsafeMutableRawPointer?]) -> Void) { self.handler = handler }
}

/// `gboolean (*GSignalEmissionHook)(GSignalInvocationHint *hint, guint n_param_values,
/// const GValue *param_values, gpointer data)`: returns TRUE to stay installed.
private let hookTrampoline: GSignalEmissionHook = { _, count, values, data in
    guard let values, let data else { return 1 }
    let handler = Unmanaged<HookBox>.fromOpaque(data).takeUnretainedValue().handler
    // The instance and the pointer-sized arguments (objects, boxed values); values are only
    // valid during the emission, which runs on the main thread.
    nonisolated(unsafe) let instance = g_value_peek_pointer(values)
    nonisolated(unsafe) let arguments = (1..<max(1, Int(count))).map { g_value_peek_pointer(values + $0) }
    MainActor.assumeIsolated { handler(instance, arguments) }
    return 1
}

private let releaseHookBox: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<HookBox>.fromOpaque(data).release()
}

/// Calls `handler` at the start of every emission of `signal` on any instance of `type`, before
/// any handler can stop it: what GTK's `GtkWidget::event` needs to observe every input event,
/// even those a widget (a web view) handles itself. Removed by `remove()` or when released.
@MainActor
public final class EmissionHook {
    private var signalID: guint = 0
    private var hookID: gulong = 0

    /// Nil when `type` has no such signal (or it forbids hooks).
    public init?(type: GType, signal: String,
                 _ handler: @escaping @MainActor (_ instance: UnsafeMutableRawPointer?, _ arguments: [UnsafeMutableRawPointer?]) -> Void) {
        // The class must exist for its signals to be registered.
        let classReference = g_type_class_ref(type)
        defer { g_type_class_unref(classReference) }
        let id = g_signal_lookup(signal, type)
        guard id != 0 else { return nil }
        let hook = g_signal_add_emission_hook(id, 0, hookTrampoline, Unmanaged.passRetained(HookBox(handler)).toOpaque(), releaseHookBox)
        guard hook != 0 else { return nil }
        signalID = id
        hookID = hook
    }

    public var isInstalled: Bool { hookID != 0 }

    /// Removes the hook; GLib then releases the closure. Safe to call twice.
    public func remove() {
        guard hookID != 0 else { return }
        g_signal_remove_emission_hook(signalID, hookID)
        hookID = 0
    }

    isolated deinit {
        remove()
    }
}
