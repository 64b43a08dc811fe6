// What Porthole's structured log entries carry, as a GLib log writer receives them.
import CGLib
import GLibBridge
import Synchronization
import XCTest

/// A process-wide GLib log writer that records entries while a test captures and otherwise hands
/// every entry to GLib's default writer. `g_log_set_writer_func` may be called only once per
/// process, so it is installed once (lazily, by the first capture) and never removed; other tests
/// in the same process see their log output unchanged.
private enum LogCapture {
    static let entries = Mutex<[[String: String]]?>(nil)

    static let installed: Void = {
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
    static func capture(_ body: () -> Void) -> [[String: String]] {
        _ = installed
        entries.withLock { $0 = [] }
        body()
        return entries.withLock { entries in
            defer { entries = nil }
            return entries ?? []
        }
    }
}

final class LogFieldsTests: XCTestCase {
    func testJournalCanFilterPortholeEntriesByIdentifierAndPriority() {
        let entries = LogCapture.capture {
            Log.warning("a warning for the test", fields: ["PORTHOLE_EVENT": "test"])
            Log.info("an info for the test")
            Log.debug("a debug for the test")
        }
        let ours = entries.filter { $0["MESSAGE"]?.hasSuffix("for the test") == true }
        XCTAssertEqual(ours.map { $0["SYSLOG_IDENTIFIER"] }, ["porthole", "porthole", "porthole"])
        // syslog(3): LOG_WARNING 4, LOG_INFO 6, LOG_DEBUG 7.
        XCTAssertEqual(ours.map { $0["PRIORITY"] }, ["4", "6", "7"])
        XCTAssertEqual(ours.first?["PORTHOLE_EVENT"], "test")
        XCTAssertEqual(ours.first?["GLIB_DOMAIN"], "porthole")
    }
}
