// Structured logging through GLib (journald when present): one line per event, with fields, a
// stable MESSAGE_ID per event kind, and a writer that keeps INFO events GLib's default drops.
import CGLib
import Glibc

public enum Log {
    /// The log domain: `G_MESSAGES_DEBUG=porthole` shows debug messages.
    public static let domain = "porthole"

    /// `SYSLOG_IDENTIFIER`: what `journalctl -t porthole` matches.
    public static let syslogIdentifier = "porthole"

    /// `MESSAGE_ID` per `PORTHOLE_EVENT`: fixed random 128-bit ids, as systemd's catalog uses, so
    /// `journalctl MESSAGE_ID=…` finds one kind of event across a fleet whatever the message's
    /// language or wording. An id, once shipped, never changes; a new event kind gets a new one
    /// (`systemd-id128 new`). `LogFieldsTests` checks that every event the sources log has one.
    public static let messageIDs: [String: String] = [
        "close-refused": "db12522bbc1247a6881a4cab8ae70b34",
        "config-kept": "c74018d84ee848cda0ce1950cd23b5f4",
        "config-lock": "b9f0a8da7e6d4a58b6ca25a47faa3b1a",
        "config-loaded": "db02491a427740c194bb6edebb21dbd2",
        "config-problem": "5b680e1f6f0246288d74b2d29b23916d",
        "config-reload": "348056ddbda84ea3bf0d33b451b87235",
        "config-sighup": "ff6e473b4a064bba9d4e2ff43c62bc9e",
        "crash-loop": "f1797389f73c403d833d0a257b0b66bb",
        "crash-recovery": "5f4b246b82614942b3e3de0738c56430",
        "display-lost": "5aed463fe39b482b84d9002ceb490b0d",
        "download-refused": "b1c09eca199141b8b7cc79ff8a552dbc",
        "exit-pin-wrong": "f5f9685e120d4b1b94a2c163967436fe",
        "exit-refused": "efefae094c0946a98ef34de9f4bd63f2",
        "hang-loop": "e70e2ac3ac2844669a00d2f29cbd8654",
        "idle-cancelled": "88a273df655a413ba642cd5d04532a9e",
        "idle-sound-failed": "4f8ada3a78ac46f0b23068393a540855",
        "idle-warning": "ddf218d491534009937c1b1bd5a91aa6",
        "key-refused": "5d690fdb7fc54db3974f4f75420926df",
        "keyboard": "5719203fb3de4ae398d2efb84003454b",
        "kiosk-exit": "0c9b87dd9a8049e6a82958f6bcfb76b5",
        "kiosk-start": "046c0c721538430a8c79c84bf8d2cafd",
        "link-refused": "735433de53c9450293659151bb01fc43",
        "navigation-blocked": "81f23f5f870149d1ad3afa4d059ab030",
        "network-available": "12a374dc31f74e9ebfa3351625829d03",
        "next-visitor-discarded": "f687ab0b120e42679b2cf76c9ad7c06b",
        "next-visitor-prepared": "f182019443cb4587a347080896245130",
        "open-site-unknown": "c73e469142894bd9806e42781afddcd3",
        "page-hung": "79526550411b4fbb82e2891abf385f2a",
        "page-unresponsive": "482228be602d4502b6c8c688de6c63dd",
        "permission": "0461365e36d4432e8d16e9d410a6e2ab",
        "profile-problem": "0b5ed08874c04b8a91a90a8699d3805e",
        "refullscreen": "0be5a9bb5a1248b0b8c57ec1a2e599eb",
        "refused": "44ddea449e95400585667bb03a7af3c4",
        "retry-scheduled": "ab86556cc3ae43f28be2c94c95673e92",
        "sandbox-unavailable": "f89bdafd56284e468aad07f0e0e93b9a",
        "sd-notify-ready": "9958e77375b04bd092b9aa549e82c37c",
        "session-renewed": "bd7f57dd84c24c7faaca8d7b69e51058",
        "sigterm": "c5206ee72b96465681b78e85e254cc3c",
        "sign-in-retry": "cccfafbde39c4fd696e11757c35715d8",
        "signal-shape-mismatch": "f5d09da8d33642c485fb0cdb992c3e84",
        "speech": "5c8bbf0f9c2c4e20afb2f1854f3b7ecd",
        "speech-mode": "2d0731a535bf4249bea34c2f4ffff988",
        "speech-stop": "25adf6fc720b42f6aaa651e0ff070ad2",
        "speech-activate": "8951daa79e9947c3bf5ce883f1ab8c48",
        "speech-audio": "1f6588f80a6a483fb52728650c1f17e1",
        "speech-problem": "12da32c5887f4e9c8236215b81144b1c",
        "status-file-failed": "dc2a6eb03e9845248416027ed4230ce7",
        "subresource-blocked": "730da8aca94a467f8344597938518c16",
        "swipe-navigation": "d9d34738d1c547d08424dd4075f91a50",
        "tls-error": "8b420f03062844e2964b738750afb4a8",
        "tls-exception": "cfbc17c9bdb2452bb246cb79d388519e",
        "visitor-controls": "d71542f989ca4c7a9b0f7aab9e155199",
        "web-extension-missing": "c253fe4474cf47c2911b458c903e51d4",
        "web-process-policy-updated": "8f5c169d88004675b2bab7bad346e649",
        "web-process-terminated": "4847dcb740994352a29d7d30551625f6",
        "websocket-rules-failed": "672c080c545946a189df197ab61d1fc1",
    ]

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
        if let event = fieldList.first(where: { $0.0 == "PORTHOLE_EVENT" })?.1, let id = messageIDs[event] {
            strings.append(("MESSAGE_ID", id))
        }
        let cStrings = strings.map { (strdup($0.0)!, strdup($0.1)!) }
        defer { cStrings.forEach { free($0.0); free($0.1) } }
        var logFields = cStrings.map { GLogField(key: UnsafePointer($0.0), value: UnsafeRawPointer($0.1), length: -1) }
        g_log_structured_array(level.flags, &logFields, gsize(logFields.count))
    }

    public static func debug(_ message: String, fields: KeyValuePairs<String, String> = [:]) { write(.debug, message, fields: fields) }
    public static func info(_ message: String, fields: KeyValuePairs<String, String> = [:]) { write(.info, message, fields: fields) }
    public static func warning(_ message: String, fields: KeyValuePairs<String, String> = [:]) { write(.warning, message, fields: fields) }

    // MARK: The writer

    /// Where one entry goes.
    public enum Destination: Equatable, Sendable {
        /// journald's native protocol (`g_log_writer_journald`), with every field.
        case journal
        /// Standard error, one line with the level (`g_log_writer_standard_streams`).
        case standardError
        /// Nowhere.
        case drop
        /// Another library's entry: GLib's default writer decides, as it would without Porthole.
        case glibDefault
    }

    /// Where an entry of `level` goes. Porthole's own events are its record of the kiosk's life
    /// (started, new visitor session, idle warning, configuration loaded, SIGHUP, close
    /// refused): with the journal on standard error (a systemd service) every level but debug is
    /// written, at its priority, and so it is on a standard error that is a file or a pipe (a
    /// service under another supervisor). At a terminal INFO stays quiet unless asked for, as GLib
    /// has it. Debug is written only when `G_MESSAGES_DEBUG` asks for it (`debugWanted`).
    public static func destination(level: Level, ours: Bool, stderrIsJournal: Bool, stderrIsTerminal: Bool,
                                   debugWanted: Bool) -> Destination {
        guard ours else { return .glibDefault }
        let written: Destination = stderrIsJournal ? .journal : .standardError
        switch level {
        case .debug: return debugWanted ? written : .drop
        case .info: return stderrIsJournal || !stderrIsTerminal || debugWanted ? written : .drop
        case .message, .warning, .critical: return written
        }
    }

    /// The level of GLib's `flags` (the most severe bit set); error and critical are critical.
    static func level(of flags: GLogLevelFlags) -> Level {
        let bits = flags.rawValue
        if bits & (G_LOG_LEVEL_ERROR.rawValue | G_LOG_LEVEL_CRITICAL.rawValue) != 0 { return .critical }
        if bits & G_LOG_LEVEL_WARNING.rawValue != 0 { return .warning }
        if bits & G_LOG_LEVEL_MESSAGE.rawValue != 0 { return .message }
        if bits & G_LOG_LEVEL_INFO.rawValue != 0 { return .info }
        return .debug
    }

    /// Makes `writer` the process's GLib log writer: Porthole's entries go where `destination`
    /// says, everything else through GLib's default writer. GLib allows this once per process and
    /// before anything is logged; the executable calls it first thing.
    public static func installWriter() {
        // GLib writes INFO and DEBUG lines to standard output by default; a log is standard error's.
        g_log_writer_default_set_use_stderr(1)
        g_log_set_writer_func({ flags, fields, count, data in
            var ours = false
            for index in 0..<Int(count) {
                guard let field = fields?[index], let key = field.key, strcmp(key, "GLIB_DOMAIN") == 0,
                      let value = field.value, field.length < 0 else { continue }
                ours = strcmp(value.assumingMemoryBound(to: CChar.self), Log.domain) == 0
            }
            let level = Log.level(of: flags)
            let destination = Log.destination(
                level: level, ours: ours, stderrIsJournal: g_log_writer_is_journald(STDERR_FILENO) != 0,
                stderrIsTerminal: isatty(STDERR_FILENO) != 0,
                debugWanted: g_log_writer_default_would_drop(G_LOG_LEVEL_DEBUG, Log.domain) == 0)
            switch destination {
            case .glibDefault:
                return g_log_writer_default(flags, fields, count, data)
            case .drop:
                return G_LOG_WRITER_HANDLED
            case .journal:
                // Without the journal after all (its socket gone), the line goes to standard error.
                if g_log_writer_journald(flags, fields, count, data) == G_LOG_WRITER_HANDLED { return G_LOG_WRITER_HANDLED }
                return g_log_writer_standard_streams(flags, fields, count, data)
            case .standardError:
                return g_log_writer_standard_streams(flags, fields, count, data)
            }
        }, nil, nil)
    }
}
