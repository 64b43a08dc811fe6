// What Porthole's structured log entries carry, as a GLib log writer receives them.
import CGLib
import GLibBridge
import Foundation
import XCTest

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

    /// `journalctl MESSAGE_ID=…` finds one kind of event: the id rides with the event's name.
    func testEachEventKindCarriesItsStableMessageID() {
        let entries = LogCapture.capture {
            Log.info("new visitor session", fields: ["PORTHOLE_EVENT": "session-renewed"])
            Log.info("idle: warning for the test", fields: ["PORTHOLE_EVENT": "idle-warning"])
            Log.info("no event for the test")
        }
        let ours = entries.filter { $0["GLIB_DOMAIN"] == "porthole" }
        // Fixed when shipped: a change here breaks every admin's saved journal query.
        XCTAssertEqual(ours.map { $0["MESSAGE_ID"] }, ["bd7f57dd84c24c7faaca8d7b69e51058", "ddf218d491534009937c1b1bd5a91aa6", nil])
    }

    /// Every `PORTHOLE_EVENT` the sources log has its own id: 128 bits in 32 lowercase hex digits,
    /// as `systemd-id128 new` writes them (sd-id128(3)), none shared by two kinds.
    func testEveryLoggedEventKindHasItsOwnMessageID() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var events: Set<String> = []
        let pattern = try Regex(#""PORTHOLE_EVENT"\s*:\s*([^,\]]*)"#)
        for file in files {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            for match in text.matches(of: pattern) {
                let expression = String(text[match.range])
                for literal in expression.matches(of: try Regex(#""([a-z-]+)""#)) where literal.output.count > 1 {
                    if let name = literal.output[1].substring, name != "PORTHOLE_EVENT" { events.insert(String(name)) }
                }
            }
        }
        events.insert("config-problem")
        events.insert("config-lock")
        XCTAssertGreaterThan(events.count, 30, "the scan finds the logged events")
        XCTAssertEqual(events.subtracting(Log.messageIDs.keys).sorted(), [], "events without a MESSAGE_ID")
        let ids = Array(Log.messageIDs.values)
        XCTAssertEqual(Set(ids).count, ids.count, "each kind its own id")
        for id in ids { XCTAssertNotNil(id.wholeMatch(of: try Regex("[0-9a-f]{32}")), id) }
    }

    /// GLib's default writer drops INFO unless G_MESSAGES_DEBUG names the domain, and the
    /// kiosk's life is logged at INFO; under systemd it now reaches the journal at priority 6.
    func testPortholeEventsReachTheirDestinationAtEveryLevel() {
        typealias Row = (level: Log.Level, ours: Bool, journal: Bool, terminal: Bool, debug: Bool, expected: Log.Destination, line: UInt)
        let rows: [Row] = [
            (.info, true, true, false, false, .journal, #line),          // a systemd service
            (.message, true, true, false, false, .journal, #line),
            (.warning, true, true, false, false, .journal, #line),
            (.critical, true, true, false, false, .journal, #line),
            (.debug, true, true, false, false, .drop, #line),            // debug only when asked for
            (.debug, true, true, false, true, .journal, #line),
            (.info, true, false, false, false, .standardError, #line),   // another supervisor's log file
            (.debug, true, false, false, false, .drop, #line),
            (.info, true, false, true, false, .drop, #line),             // a terminal: quiet, as GLib
            (.info, true, false, true, true, .standardError, #line),
            (.warning, true, false, true, false, .standardError, #line),
            (.debug, true, false, true, true, .standardError, #line),
            (.info, false, true, false, false, .glibDefault, #line),     // WebKit's, GTK's: unchanged
            (.warning, false, false, true, false, .glibDefault, #line),
        ]
        for row in rows {
            XCTAssertEqual(Log.destination(level: row.level, ours: row.ours, stderrIsJournal: row.journal,
                                           stderrIsTerminal: row.terminal, debugWanted: row.debug), row.expected, line: row.line)
        }
    }
}
