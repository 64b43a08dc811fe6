// What a running Porthole reports for monitoring (`porthole status`, the `status` action's state):
// a value the window's events update, its a{sv} form on D-Bus, and the report read back from it.
import CGLib

/// What happened in the browser that only the status counts. What the page shows and the
/// refusals are their owners' (`ShownPage`, `RefusalLog`): the status follows them (`follow`).
public enum StatusEvent: Sendable, Equatable {
    /// The web process ended abnormally; the page is recovered (reloaded).
    case crashRecovered
    /// The page stopped responding and Porthole ended its web process (counted as a crash too).
    case hangEnded
    /// A kiosk's next visitor got a fresh session (idle reset).
    case visitorSessionStarted
}

/// The running browser's status. Times are wall-clock Unix seconds, so a client with its own
/// clock can tell how long ago they were.
public struct BrowserStatus: Sendable, Equatable {
    public var url: String?
    public var title: String?
    public var kiosk = false
    public var startedAt: Int
    public var configFiles: [String] = []
    public var configProblems = 0
    public var refusals = 0
    public var crashRecoveries = 0
    public var lastRefusal: String?
    public var lastRefusalAt: Int?
    /// `porthole --version`'s version, and the SHA-256 of the configuration files as read.
    public var version = ""
    public var configDigest = ""
    public var visitorSessions = 0
    public var hangs = 0
    public var lastCrashAt: Int?
    public var lastHangAt: Int?
    public var lastVisitorSessionAt: Int?
    /// Why the profile cannot be written (ProfileCheck), or none.
    public var profileProblems: [String] = []
    /// Since when the view has shown an error page, or nil.
    public var errorPageSince: Int?
    /// The web process sandbox: `on`, `off`, or `off (why)` (see `WebProcessSandbox.Decision`).
    public var sandbox: String?
    /// Pages run without the sandbox although `sandbox=auto` wanted it: a monitor should know.
    public var sandboxMissing = false

    public init(startedAt: Int) {
        self.startedAt = startedAt
    }

    /// With configuration problems the browser fails closed (only its start page, nothing allowed).
    public var isFailingClosed: Bool { configProblems > 0 }

    public mutating func configurationLoaded(files: [String], problems: Int, kiosk: Bool, digest: String = "") {
        configFiles = files
        configDigest = digest
        configProblems = problems
        self.kiosk = kiosk
    }

    /// Takes what the page shows, its title and the refusals from their owners (the page session,
    /// the window session) at `now`: the status keeps only when it first saw each of them.
    public mutating func follow(_ page: ShownPage, title: String?, refusals log: RefusalLog, at now: Int) {
        url = page.url
        self.title = title
        errorPageSince = page.isErrorPage ? errorPageSince ?? now : nil
        if log.count != refusals {
            refusals = log.count
            lastRefusal = log.recent.last.map { "\($0.uri) (\($0.reason))" }
            lastRefusalAt = now
        }
    }

    public mutating func record(_ event: StatusEvent, at now: Int) {
        switch event {
        case .crashRecovered:
            crashRecoveries += 1
            lastCrashAt = now
        case .hangEnded:
            hangs += 1
            lastHangAt = now
        case .visitorSessionStarted:
            visitorSessions += 1
            lastVisitorSessionAt = now
        }
    }

    /// The a{sv} dictionary the `status` action holds (a new floating GVariant).
    public func variant() -> OpaquePointer {
        var entries: [(String, OpaquePointer)] = [
            ("url", g_variant_new_string(url ?? "")),
            ("title", g_variant_new_string(title ?? "")),
            ("kiosk", g_variant_new_boolean(kiosk ? 1 : 0)),
            ("started-at", g_variant_new_int64(startedAt)),
            ("config-problems", g_variant_new_int64(configProblems)),
            ("refusals", g_variant_new_int64(refusals)),
            ("crash-recoveries", g_variant_new_int64(crashRecoveries)),
            ("last-refusal", g_variant_new_string(lastRefusal ?? "")),
            ("last-refusal-at", g_variant_new_int64(lastRefusalAt ?? 0)),
            ("error-page-since", g_variant_new_int64(errorPageSince ?? 0)),
            ("version", g_variant_new_string(version)),
            ("config-digest", g_variant_new_string(configDigest)),
            ("visitor-sessions", g_variant_new_int64(visitorSessions)),
            ("hangs", g_variant_new_int64(hangs)),
            ("last-crash-at", g_variant_new_int64(lastCrashAt ?? 0)),
            ("last-hang-at", g_variant_new_int64(lastHangAt ?? 0)),
            ("last-visitor-session-at", g_variant_new_int64(lastVisitorSessionAt ?? 0)),
            ("sandbox", g_variant_new_string(sandbox ?? "")),
            ("sandbox-missing", g_variant_new_boolean(sandboxMissing ? 1 : 0)),
        ]
        // An `as` built from string children, as the dictionary is below: no C string array.
        func strv(_ strings: [String]) -> OpaquePointer {
            let children: [OpaquePointer?] = strings.map { g_variant_new_string($0) }
            return children.withUnsafeBufferPointer { g_variant_new_array(g_variant_type_checked_("s"), $0.baseAddress, gsize($0.count)) }
        }
        entries.insert(("config-files", strv(configFiles)), at: 4)
        entries.append(("profile-problems", strv(profileProblems)))
        let children = entries.map { key, value in
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value))
        }
        let type = g_variant_type_new("{sv}")
        defer { g_variant_type_free(type) }
        return children.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
    }

    /// Reads back what `variant()` wrote; nil when `dictionary` is not an a{sv}.
    public init?(variant dictionary: OpaquePointer) {
        guard String(cString: g_variant_get_type_string(dictionary)) == "a{sv}" else { return nil }
        func value(_ key: String) -> OpaquePointer? { g_variant_lookup_value(dictionary, key, nil) }
        func string(_ key: String) -> String? {
            guard let v = value(key) else { return nil }
            defer { g_variant_unref(v) }
            guard g_variant_is_of_type(v, g_variant_type_checked_("s")) != 0 else { return nil }
            let text = String(cString: g_variant_get_string(v, nil))
            return text.isEmpty ? nil : text
        }
        func int(_ key: String) -> Int? {
            guard let v = value(key) else { return nil }
            defer { g_variant_unref(v) }
            return g_variant_is_of_type(v, g_variant_type_checked_("x")) != 0 ? g_variant_get_int64(v) : nil
        }
        self.init(startedAt: int("started-at") ?? 0)
        url = string("url")
        title = string("title")
        if let v = value("kiosk") {
            kiosk = g_variant_is_of_type(v, g_variant_type_checked_("b")) != 0 && g_variant_get_boolean(v) != 0
            g_variant_unref(v)
        }
        func strings(_ key: String) -> [String] {
            guard let v = value(key) else { return [] }
            defer { g_variant_unref(v) }
            guard g_variant_is_of_type(v, g_variant_type_checked_("as")) != 0, let strv = g_variant_get_strv(v, nil) else { return [] }
            defer { g_free(UnsafeMutableRawPointer(mutating: strv)) }
            var result: [String] = []
            var index = 0
            while let item = strv[index] { result.append(String(cString: item)); index += 1 }
            return result
        }
        configFiles = strings("config-files")
        profileProblems = strings("profile-problems")
        configProblems = int("config-problems") ?? 0
        refusals = int("refusals") ?? 0
        crashRecoveries = int("crash-recoveries") ?? 0
        lastRefusal = string("last-refusal")
        lastRefusalAt = int("last-refusal-at").flatMap { $0 == 0 ? nil : $0 }
        errorPageSince = int("error-page-since").flatMap { $0 == 0 ? nil : $0 }
        version = string("version") ?? ""
        configDigest = string("config-digest") ?? ""
        visitorSessions = int("visitor-sessions") ?? 0
        hangs = int("hangs") ?? 0
        lastCrashAt = int("last-crash-at").flatMap { $0 == 0 ? nil : $0 }
        lastHangAt = int("last-hang-at").flatMap { $0 == 0 ? nil : $0 }
        lastVisitorSessionAt = int("last-visitor-session-at").flatMap { $0 == 0 ? nil : $0 }
        sandbox = string("sandbox")
        if let v = value("sandbox-missing") {
            sandboxMissing = g_variant_is_of_type(v, g_variant_type_checked_("b")) != 0 && g_variant_get_boolean(v) != 0
            g_variant_unref(v)
        }
    }
}

/// What a monitor makes of the status, as monitoring plugins say it (the Nagios plugin API, also
/// used by Icinga, Naemon and NRPE): the exit status 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
public enum StatusHealth: Int32, Sendable, Equatable {
    case ok = 0, warning = 1, critical = 2, unknown = 3

    public var name: String {
        switch self {
        case .ok: "OK"
        case .warning: "WARNING"
        case .critical: "CRITICAL"
        case .unknown: "UNKNOWN"
        }
    }
}

/// `porthole status`: the status as `key: value` lines, JSON, or Prometheus's text format, and
/// whether a monitor should worry.
public enum StatusReport {
    /// The health, and why: CRITICAL when failing closed (a kiosk that shows only "not set up
    /// correctly" serves nobody), WARNING on an error page for more than `maximumErrorSeconds`
    /// (the site may come back; Porthole retries it), else OK.
    public static func health(_ status: BrowserStatus, now: Int, maximumErrorSeconds: Int) -> (health: StatusHealth, reasons: [String]) {
        var reasons: [String] = []
        var health = StatusHealth.ok
        if status.isFailingClosed {
            reasons.append("failing closed")
            health = .critical
        }
        if let since = status.errorPageSince, max(0, now - since) > maximumErrorSeconds {
            reasons.append("error page for \(max(0, now - since)) s")
            if health == .ok { health = .warning }
        }
        // Pages run outside the sandbox that `sandbox=auto` wanted (a kiosk fails closed instead).
        if status.sandboxMissing {
            reasons.append("web processes not sandboxed")
            if health == .ok { health = .warning }
        }
        // Pages still load, but what they store (sign-ins, the cache) fails: WARNING.
        if !status.profileProblems.isEmpty {
            reasons += status.profileProblems
            if health == .ok { health = .warning }
        }
        return (health, reasons)
    }

    /// The lines to print (machine-readable keys, untranslated) and the exit status. Values are
    /// escaped (`escapedLine`): a title cannot start a line of its own.
    public static func render(_ status: BrowserStatus, now: Int, maximumErrorSeconds: Int) -> (lines: [String], status: Int32) {
        let (health, reasons) = health(status, now: now, maximumErrorSeconds: maximumErrorSeconds)
        let pairs: [(String, String)] = [
            ("version", status.version),
            ("url", status.url ?? ""),
            ("title", status.title ?? ""),
            ("kiosk", "\(status.kiosk)"),
            ("uptime", "\(max(0, now - status.startedAt))"),
            ("config-files", status.configFiles.joined(separator: ";")),
            ("config-digest", status.configDigest),
            ("config-problems", "\(status.configProblems)"),
            ("failing-closed", "\(status.isFailingClosed)"),
            ("visitor-sessions", "\(status.visitorSessions)"),
            ("refusals", "\(status.refusals)"),
            ("crash-recoveries", "\(status.crashRecoveries)"),
            ("hangs", "\(status.hangs)"),
            ("last-refusal", status.lastRefusal ?? ""),
            ("error-page-for", "\(status.errorPageSince.map { max(0, now - $0) } ?? 0)"),
            ("sandbox", status.sandbox ?? ""),
            ("health", reasons.isEmpty ? "ok" : reasons.joined(separator: ", ")),
        ]
        return (pairs.map { "\($0.0): \(escapedLine($0.1))" }, health.rawValue)
    }

    /// `text` on one line: backslash, C0 and C1 controls, DEL and the Unicode line and paragraph
    /// separators (U+2028, U+2029, which line-splitting parsers such as Python's
    /// `str.splitlines` break at) become `\\`, `\n`, `\t`, `\r` or `\u{XXXX}`.
    public static func escapedLine(_ text: String) -> String {
        ScalarEscaping.escape(text, lineReplacements) { scalar in
            guard ScalarEscaping.isControl(scalar) || scalar.value == 0x2028 || scalar.value == 0x2029 else { return nil }
            return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    private static let lineReplacements: [Unicode.Scalar: String] = ["\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"]

    /// `porthole status --json`: one JSON object (RFC 8259), keys as in the text form, numbers
    /// as numbers, times as Unix seconds (null when it never happened).
    public static func json(_ status: BrowserStatus, now: Int, maximumErrorSeconds: Int) -> String {
        let (health, reasons) = health(status, now: now, maximumErrorSeconds: maximumErrorSeconds)
        func string(_ text: String?) -> String { text.map(jsonString) ?? "null" }
        func time(_ value: Int?) -> String { value.map(String.init) ?? "null" }
        let members: [(String, String)] = [
            ("version", string(status.version)),
            ("health", string(health.name)),
            ("health_reasons", "[" + reasons.map(jsonString).joined(separator: ",") + "]"),
            ("failing_closed", "\(status.isFailingClosed)"),
            ("kiosk", "\(status.kiosk)"),
            ("url", string(status.url)),
            ("title", string(status.title)),
            ("started_at", "\(status.startedAt)"),
            ("uptime_seconds", "\(max(0, now - status.startedAt))"),
            ("config", "{\"digest\":\(string(status.configDigest)),\"sources\":["
                + status.configFiles.map(jsonString).joined(separator: ",") + "],\"problems\":\(status.configProblems)}"),
            ("counters", "{\"visitor_sessions\":\(status.visitorSessions),\"refusals\":\(status.refusals),"
                + "\"crashes\":\(status.crashRecoveries),\"hangs\":\(status.hangs)}"),
            ("last", "{\"refusal\":\(time(status.lastRefusalAt)),\"refusal_url\":\(string(status.lastRefusal)),"
                + "\"crash\":\(time(status.lastCrashAt)),\"hang\":\(time(status.lastHangAt)),"
                + "\"visitor_session\":\(time(status.lastVisitorSessionAt))}"),
            ("error_page_since", time(status.errorPageSince)),
            ("sandbox", string(status.sandbox)),
            ("profile_problems", "[" + status.profileProblems.map(jsonString).joined(separator: ",") + "]"),
        ]
        return "{" + members.map { jsonString($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// A JSON string (RFC 8259 section 7): a JavaScript string literal as Porthole writes one is
    /// one, with every control character, U+2028 and U+2029 escaped.
    static func jsonString(_ text: String) -> String { JavaScript.stringLiteral(text) }

    /// The status file: Prometheus's text exposition format (version 0.0.4), as node_exporter's
    /// textfile collector reads it. Counters end in `_total`, times in `_timestamp_seconds`
    /// (0 when it never happened); the page's URL and title stay out (a label per page would be a
    /// new series per page, which Prometheus's naming guide warns against).
    public static func prometheus(_ status: BrowserStatus, now: Int, maximumErrorSeconds: Int) -> String {
        let (health, _) = health(status, now: now, maximumErrorSeconds: maximumErrorSeconds)
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ value: Int, labels: String = "") {
            out += "# HELP porthole_\(name) \(help)\n# TYPE porthole_\(name) \(type)\nporthole_\(name)\(labels) \(value)\n"
        }
        metric("info", "gauge", "The running browser's version and configuration.", 1,
               labels: "{version=\(prometheusLabel(status.version)),config_digest=\(prometheusLabel(status.configDigest)),kiosk=\"\(status.kiosk)\"}")
        metric("health", "gauge", "0 OK, 1 WARNING, 2 CRITICAL, as porthole status exits.", Int(health.rawValue))
        metric("failing_closed", "gauge", "1 when configuration problems block every site.", status.isFailingClosed ? 1 : 0)
        metric("config_problems", "gauge", "Problems found in the configuration.", status.configProblems)
        metric("start_time_seconds", "gauge", "When the browser started, in Unix seconds.", status.startedAt)
        metric("status_time_seconds", "gauge", "When this status was written, in Unix seconds.", now)
        metric("visitor_sessions_total", "counter", "Fresh visitor sessions started (idle resets).", status.visitorSessions)
        metric("refusals_total", "counter", "Navigations refused by the site policy.", status.refusals)
        metric("crashes_total", "counter", "Web processes that ended and were recovered.", status.crashRecoveries)
        metric("hangs_total", "counter", "Pages that stopped responding and were ended.", status.hangs)
        metric("last_refusal_timestamp_seconds", "gauge", "The last refusal, in Unix seconds.", status.lastRefusalAt ?? 0)
        metric("last_crash_timestamp_seconds", "gauge", "The last web process end, in Unix seconds.", status.lastCrashAt ?? 0)
        metric("last_hang_timestamp_seconds", "gauge", "The last hang, in Unix seconds.", status.lastHangAt ?? 0)
        metric("last_visitor_session_timestamp_seconds", "gauge", "The last visitor session's start, in Unix seconds.",
               status.lastVisitorSessionAt ?? 0)
        metric("error_page_since_timestamp_seconds", "gauge", "Since when an error page shows, in Unix seconds.", status.errorPageSince ?? 0)
        metric("sandboxed", "gauge", "1 when the web processes run in WebKit's sandbox.", status.sandbox == "on" ? 1 : 0)
        metric("profile_writable", "gauge", "1 when the profile's directories can be written and have room.", status.profileProblems.isEmpty ? 1 : 0)
        return out
    }

    /// A label value in quotes: backslash, double quote and line feed escaped, as the text
    /// exposition format requires.
    static func prometheusLabel(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n") + "\""
    }

    /// A digest of the configuration as read: SHA-256 over each file's path and bytes, in the
    /// order they were read (two kiosks with the same digest run the same files).
    public static func configDigest(_ files: [(path: String, bytes: [UInt8])]) -> String {
        guard !files.isEmpty, let checksum = g_checksum_new(G_CHECKSUM_SHA256) else { return "" }
        defer { g_checksum_free(checksum) }
        for file in files {
            let header = Array(file.path.utf8) + [0] + Array(String(file.bytes.count).utf8) + [0]
            header.withUnsafeBufferPointer { g_checksum_update(checksum, $0.baseAddress, gssize($0.count)) }
            file.bytes.withUnsafeBufferPointer { g_checksum_update(checksum, $0.baseAddress, gssize($0.count)) }
        }
        return "sha256:" + String(cString: g_checksum_get_string(checksum))
    }
}

/// Where the status file goes: `$XDG_RUNTIME_DIR/porthole/status.prom` (the user's own, mode
/// 0700 above it), and `$RUNTIME_DIRECTORY/status.prom` when systemd made a runtime directory for
/// the unit (`RuntimeDirectory=`, systemd.exec(5)), which the system kiosk unit makes readable
/// to other users (`/run/porthole`), for node_exporter or an NRPE check running as themselves.
public enum StatusFileLocation {
    public static let name = "status.prom"

    public static func paths(environment: [String: String]) -> [String] {
        var paths: [String] = []
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            paths.append(runtime + "/porthole/" + name)
        }
        // systemd lists several directories separated by colons when the unit names several.
        if let unit = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, unit.hasPrefix("/") {
            let path = unit + "/" + name
            if !paths.contains(path) { paths.append(path) }
        }
        return paths
    }
}
