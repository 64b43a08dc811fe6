// Watches the Chrome policy folder with a GFileMonitor and reloads the configuration once it has
// settled (ConfigWatch decides when), as Chrome re-reads its policy folder when it changes.
import CGLib
import GLibBridge
import PortholeCore

@MainActor
final class ChromePolicyWatcher {
    private var monitor: UnsafeMutablePointer<GFileMonitor>?
    private var folder: String?
    private let connections = SignalConnections()
    private var watch = ConfigWatch()
    private var timer: ScheduledSource?
    private let reload: @MainActor () -> Void

    init(reload: @escaping @MainActor () -> Void) { self.reload = reload }

    /// Watches `folder` (the configuration's `[Policy] chrome-policies`), or nothing when nil;
    /// a folder already watched is left as it is.
    func watch(_ folder: String?) {
        guard folder != self.folder else { return }
        stop()
        self.folder = folder
        guard let folder else { return }
        let file = g_file_new_for_path(folder)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard let monitor = g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, &error) else {
            Log.warning("cannot watch the Chrome policy folder \(folder): \(GLibError.take(error)?.message ?? "")")
            return
        }
        self.monitor = monitor
        _ = connections.connect(UnsafeMutableRawPointer(monitor), "changed", .fileChanged { [unowned self] _ in self.changed() })
    }

    private func changed() {
        _ = watch.changed(at: Self.now())
        schedule()
    }

    /// One timer at the debounce's deadline; when it fires early (rounding), it is set again.
    private func schedule() {
        timer?.cancel()
        timer = nil
        guard let deadline = watch.deadline else { return }
        let wait = max(0, (deadline - Self.now()) * 1000).rounded(.up)
        timer = MainLoop.after(milliseconds: UInt32(wait)) { [unowned self] in
            self.timer = nil
            guard self.watch.due(now: Self.now()) else { return self.schedule() }
            Log.info("the Chrome policy folder changed: reloading the configuration")
            self.reload()
        }
    }

    /// The monotonic clock, in seconds: the one clock this adapter reads.
    private static func now() -> Double { GLibClock.monotonicNow }

    func stop() {
        timer?.cancel()
        timer = nil
        connections.disconnectAll()
        if let monitor {
            g_file_monitor_cancel(monitor)
            g_object_unref(UnsafeMutableRawPointer(monitor))
        }
        monitor = nil
        folder = nil
        watch = ConfigWatch()
    }
}
