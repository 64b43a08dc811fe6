// Structured logging through GLib (journald when present): one line per event, with fields.
import CGLib

public enum Log {
    /// The log domain: `G_MESSAGES_DEBUG=porthole` shows debug messages.
    public static let domain = "porthole"

    /// `SYSLOG_IDENTIFIER`: what `journalctl -t porthole` matches.
    public static let syslogIdentifier = "porthole"

    public enum Level {
        case debug, info, message, warning, critical

        /// syslog(3) priority, as journald's `PRIORITY` field (what `journalctl -p` filters on).
        /// The same mapping as GLib's own `g_log_structured()` macros use.
        var priority: String {
            switch self {
            case .debug: "7"
            case .info: "6"
            case .message: "5"
            case .warning: "4"
            case .critical: "3"
            }
        }

        var flags: GLogLevelFlags {
            switch self {
            case .debug: G_LOG_LEVEL_DEBUG
            case .info: G_LOG_LEVEL_INFO
            case .message: G_LOG_LEVEL_MESSAGE
            case .warning: G_LOG_LEVEL_WARNING
            case .critical: G_LOG_LEVEL_CRITICAL
            }
        }
    }

    /// Logs `message` with extra structured fields (keys in journald style: `PORTHOLE_URL`).
    public static func write(_ level: Level, _ message: String, fields: KeyValuePairs<String, String> = [:]) {
        write(level, message, fieldList: fields.map { ($0.key, $0.value) })
    }

    /// Logs `message` with fields given as a list (for fields built at run time).
    public static func write(_ level: Level, _ message: String, fieldList: [(String, String)]) {
        // g_log_structured_array() adds no fields of its own: PRIORITY and SYSLOG_IDENTIFIER are ours.
        var strings: [(String, String)] = [("GLIB_DOMAIN", domain), ("PRIORITY", level.priority),
                                           ("SYSLOG_IDENTIFIER", syslogIdentifier), ("MESSAGE", message)]
        strings.append(contentsOf: fieldList)
        let cStrings = strings.map { (strdup($0.0)!, strdup($0.1)!) }
        defer { cStrings.forEach { free($0.0); free($0.1) } }
        var logFields = cStrings.map { GLogField(key: UnsafePointer($0.0), value: UnsafeRawPointer($0.1), length: -1) }
        g_log_structured_array(level.flags, &logFields, gsize(logFields.count))
    }

    public static func debug(_ message: String, fields: KeyValuePairs<String, String> = [:]) { write(.debug, message, fields: fields) }
    public static func info(_ message: String, fields: KeyValuePairs<String, String> = [:]) { write(.info, message, fields: fields) }
    public static func warning(_ message: String, fields: KeyValuePairs<String, String> = [:]) { write(.warning, message, fields: fields) }
}
