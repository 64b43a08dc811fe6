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

/// A scheduled GLib source; `cancel()` removes it if it has not finished.
@MainActor
public final class ScheduledSource {
    private var id: guint
    fileprivate init(id: guint) { self.id = id }

    /// Whether the source is still attached (it has neither run out nor been cancelled).
    public var isActive: Bool {
        id != 0 && g_main_context_find_source_by_id(nil, id) != nil
    }

    public func cancel() {
        if isActive { g_source_remove(id) }
        id = 0
    }
}

public enum MainLoop {
    /// Runs `work` once on the main loop, at idle priority.
    @MainActor
    @discardableResult
    public static func idle(_ work: @escaping @MainActor () -> Void) -> ScheduledSource {
        let box = SourceBox { work(); return false }
        let id = g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, sourceTrampoline, Unmanaged.passRetained(box).toOpaque(), releaseSourceBox)
        return ScheduledSource(id: id)
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
        let box = SourceBox(work)
        let id = g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, sourceTrampoline, Unmanaged.passRetained(box).toOpaque(), releaseSourceBox)
        return ScheduledSource(id: id)
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
        let deadline = g_get_monotonic_time() + gint64(seconds * 1_000_000)
        // A wake-up every 50 ms so the deadline is checked even when nothing else happens.
        let tick = every(milliseconds: 50) { true }
        defer { tick.cancel() }
        while !condition() {
            if g_get_monotonic_time() >= deadline { return false }
            g_main_context_iteration(nil, 1)
        }
        return true
    }
}

extension MainLoop {
    /// Runs `work` on the main loop each time the process receives `signal` (e.g. SIGHUP), until
    /// the returned source is cancelled. Uses g_unix_signal_add_full, so `work` runs as an ordinary
    /// main-loop callback, not inside a signal handler.
    @MainActor
    @discardableResult
    public static func onUnixSignal(_ signal: Int32, _ work: @escaping @MainActor () -> Void) -> ScheduledSource {
        let box = SourceBox { work(); return true }
        let id = g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal, sourceTrampoline, Unmanaged.passRetained(box).toOpaque(), releaseSourceBox)
        return ScheduledSource(id: id)
    }
}
