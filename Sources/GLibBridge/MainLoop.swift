// Hops onto the GLib main loop: the one way Porthole schedules work (Swift's main queue is not
// drained by gtk_main on Linux, so Task { @MainActor } and DispatchQueue.main are not used).
import CGLib

/// Box for a source callback, released by the source's GDestroyNotify.
private final class SourceBox: Sendable {
    let work: @MainActor () -> Bool
    init(_ work: @escaping @MainActor () -> Bool) { self.work = work }
}

/// `gboolean (*GSourceFunc)(gpointer data)`: returns G_SOURCE_CONTINUE (1) or G_SOURCE_REMOVE (0).
private let sourceTrampoline: GSourceFunc = { data in
    let box = Unmanaged<SourceBox>.fromOpaque(data!).takeUnretainedValue()
    return MainActor.assumeIsolated { box.work() } ? 1 : 0
}

/// `GDestroyNotify`: balances the `passRetained` when the source is removed.
private let releaseSourceBox: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<SourceBox>.fromOpaque(data).release()
}

/// A scheduled GLib source; `cancel()` destroys it if it has not finished.
///
/// Holds its own reference to the `GSource`, not its ID: GLib reuses IDs, so removing a source by
/// ID after it may have run could remove another one. Destroying a destroyed source does nothing.
@MainActor
public final class ScheduledSource {
    /// The source, referenced until this object goes; only touched on the main thread (GSource
    /// reference counting is thread-safe, so the deinit may drop it from anywhere).
    private nonisolated(unsafe) let source: UnsafeMutablePointer<GSource>

    /// Attaches `source` (a new, unattached source whose reference this object takes over) to the
    /// default main context with `work`, released when the source is destroyed.
    fileprivate init(_ source: UnsafeMutablePointer<GSource>, priority: Int32, _ box: SourceBox) {
        self.source = source
        g_source_set_priority(source, priority)
        g_source_set_callback(source, sourceTrampoline, Unmanaged.passRetained(box).toOpaque(), releaseSourceBox)
        g_source_attach(source, nil)
    }

    /// Whether the source is still attached (it has neither run out nor been cancelled).
    public var isActive: Bool { g_source_is_destroyed(source) == 0 }

    public func cancel() {
        g_source_destroy(source)
    }

    deinit {
        g_source_unref(source)
    }
}

public enum MainLoop {
    /// Runs `work` once on the main loop, at idle priority.
    @MainActor
    @discardableResult
    public static func idle(_ work: @escaping @MainActor () -> Void) -> ScheduledSource {
        ScheduledSource(g_idle_source_new(), priority: G_PRIORITY_DEFAULT_IDLE, SourceBox { work(); return false })
    }

    /// Runs `work` once after `milliseconds`.
    @MainActor
    @discardableResult
    public static func after(milliseconds: UInt32, _ work: @escaping @MainActor () -> Void) -> ScheduledSource {
        every(milliseconds: milliseconds) { work(); return false }
    }

    /// Runs `work` every `milliseconds` until it returns false or the source is cancelled.
    @MainActor
    @discardableResult
    public static func every(milliseconds: UInt32, _ work: @escaping @MainActor () -> Bool) -> ScheduledSource {
        ScheduledSource(g_timeout_source_new(milliseconds), priority: G_PRIORITY_DEFAULT, SourceBox(work))
    }

    /// Posts `work` to the main loop from any thread (g_idle_add_full is thread-safe).
    public static func post(_ work: @escaping @Sendable @MainActor () -> Void) {
        let box = SourceBox { work(); return false }
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, sourceTrampoline, Unmanaged.passRetained(box).toOpaque(), releaseSourceBox)
    }

    /// Iterates the default main context until `condition` holds or `timeout` seconds pass.
    /// Returns whether the condition held. For tests and for synchronous shutdown paths.
    @MainActor
    @discardableResult
    public static func iterate(timeout seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = GLibClock.monotonicNow + seconds
        // A wake-up every 50 ms so the deadline is checked even when nothing else happens.
        let tick = every(milliseconds: 50) { true }
        defer { tick.cancel() }
        while !condition() {
            if GLibClock.monotonicNow >= deadline { return false }
            g_main_context_iteration(nil, 1)
        }
        return true
    }
}

extension MainLoop {
    /// Runs `work` on the main loop each time the process receives `signal` (e.g. SIGHUP), until
    /// the returned source is cancelled. Uses a GLib unix signal source, so `work` runs as an ordinary
    /// main-loop callback, not inside a signal handler.
    @MainActor
    @discardableResult
    public static func onUnixSignal(_ signal: Int32, _ work: @escaping @MainActor () -> Void) -> ScheduledSource {
        ScheduledSource(g_unix_signal_source_new(signal), priority: G_PRIORITY_DEFAULT, SourceBox { work(); return true })
    }
}
