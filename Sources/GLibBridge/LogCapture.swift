// A process-wide GLib log writer that records entries while someone captures them: how tests
// read what Porthole logged (the speech log, the fields of each entry).
import CGLib
import Synchronization

/// Records entries while a capture runs and otherwise hands every entry to GLib's default
/// writer. `g_log_set_writer_func` may be called only once per process, so it is installed once
/// (lazily, by the first capture) and never removed; other code in the same process sees its log
/// output unchanged. Not for the porthole executable, which installs `Log.installWriter()`.
public enum LogCapture {
    private static let entries = Mutex<[[String: String]]?>(nil)

    private static let installed: Void = {
        g_log_set_writer_func({ level, fields, count, data in
            var entry: [String: String] = [:]
            for index in 0..<Int(count) {
                guard let field = fields?[index], let key = field.key, let value = field.value else { continue }
                let text = field.length < 0
                    ? String(cString: value.assumingMemoryBound(to: CChar.self))
                    : String(decoding: UnsafeRawBufferPointer(start: value, count: Int(field.length)), as: UTF8.self)
                entry[String(cString: key)] = text
            }
            let captured = LogCapture.entries.withLock { entries -> Bool in
                guard entries != nil else { return false }
                entries?.append(entry)
                return true
            }
            return captured ? G_LOG_WRITER_HANDLED : g_log_writer_default(level, fields, count, data)
        }, nil, nil)
    }()

    /// The entries logged while `body` runs.
    public static func capture(_ body: () throws -> Void) rethrows -> [[String: String]] {
        start()
        defer { _ = stop() }
        try body()
        return current
    }

    /// Starts recording (forgetting what an earlier capture recorded).
    public static func start() {
        _ = installed
        entries.withLock { $0 = [] }
    }

    /// What was recorded since `start()`, in order.
    public static var current: [[String: String]] { entries.withLock { $0 ?? [] } }

    /// Stops recording; returns what was recorded.
    public static func stop() -> [[String: String]] {
        entries.withLock { entries in
            defer { entries = nil }
            return entries ?? []
        }
    }
}
