// Core's log entries (the page's and the window's sessions) written to the journal.
import GLibBridge
import PortholeCore

extension Log {
    static func write(_ entry: PageLog) {
        let level: Level = entry.level == .warning ? .warning : entry.level == .message ? .message : .info
        write(level, entry.text, fieldList: entry.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}
