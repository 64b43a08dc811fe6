// What a running Porthole reports for monitoring (`porthole status`, the `status` action's state):
// a value the window's events update, its a{sv} form on D-Bus, and the report read back from it.
import CGLib

/// What happened in the browser that the status counts. The UI translates its events into these.
public enum StatusEvent: Sendable, Equatable {
    /// A load of the visitor's (not one of Porthole's own pages) started.
    case loadStarted
    /// A load committed at `uri`.
    case committed(uri: String)
    case title(String?)
    /// A load failed and the view shows the error page.
    case errorPageShown(uri: String)
    /// A navigation was refused; `shown` when the Blocked page replaced the page.
    case refused(uri: String, reason: String, shown: Bool)
    /// The web process ended abnormally; the page is recovered (reloaded).
    case crashRecovered
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

    public mutating func configurationLoaded(files: [String], problems: Int, kiosk: Bool) {
        configFiles = files
        configProblems = problems
        self.kiosk = kiosk
    }

    public mutating func record(_ event: StatusEvent, at now: Int) {
        switch event {
        case .loadStarted:
            errorPageSince = nil
        case .committed(let uri):
            url = uri
        case .title(let title):
            self.title = title
        case .errorPageShown(let uri):
            url = uri
            if errorPageSince == nil { errorPageSince = now }
        case .refused(let uri, let reason, let shown):
            refusals += 1
            lastRefusal = "\(uri) (\(reason))"
            lastRefusalAt = now
            if shown { errorPageSince = nil }
        case .crashRecovered:
            crashRecoveries += 1
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
            ("sandbox", g_variant_new_string(sandbox ?? "")),
            ("sandbox-missing", g_variant_new_boolean(sandboxMissing ? 1 : 0)),
        ]
        let files = configFiles.map { g_strdup($0) } + [nil]
        entries.insert(("config-files", files.withUnsafeBufferPointer {
            $0.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: files.count) { g_variant_new_strv($0, -1) }
        }), at: 4)
        files.forEach { g_free($0) }
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
        if let v = value("config-files") {
            if g_variant_is_of_type(v, g_variant_type_checked_("as")) != 0, let strv = g_variant_get_strv(v, nil) {
                var index = 0
                while let item = strv[index] { configFiles.append(String(cString: item)); index += 1 }
                g_free(UnsafeMutableRawPointer(mutating: strv))
            }
            g_variant_unref(v)
        }
        configProblems = int("config-problems") ?? 0
        refusals = int("refusals") ?? 0
        crashRecoveries = int("crash-recoveries") ?? 0
        lastRefusal = string("last-refusal")
        lastRefusalAt = int("last-refusal-at").flatMap { $0 == 0 ? nil : $0 }
        errorPageSince = int("error-page-since").flatMap { $0 == 0 ? nil : $0 }
        sandbox = string("sandbox")
        if let v = value("sandbox-missing") {
            sandboxMissing = g_variant_is_of_type(v, g_variant_type_checked_("b")) != 0 && g_variant_get_boolean(v) != 0
            g_variant_unref(v)
        }
    }
}

/// `porthole status`: the status as `key: value` lines, and whether a monitor should worry.
public enum StatusReport {
    /// The lines to print (machine-readable keys, untranslated) and the exit status: 0 healthy,
    /// 1 failing closed or on an error page for more than `maximumErrorSeconds`.
    public static func render(_ status: BrowserStatus, now: Int, maximumErrorSeconds: Int) -> (lines: [String], status: Int32) {
        var lines = [
            "url: \(status.url ?? "")",
            "title: \(status.title ?? "")",
            "kiosk: \(status.kiosk)",
            "uptime: \(max(0, now - status.startedAt))",
            "config-files: \(status.configFiles.joined(separator: ";"))",
            "config-problems: \(status.configProblems)",
            "failing-closed: \(status.isFailingClosed)",
            "refusals: \(status.refusals)",
            "crash-recoveries: \(status.crashRecoveries)",
            "last-refusal: \(status.lastRefusal ?? "")",
        ]
        let errorSeconds = status.errorPageSince.map { max(0, now - $0) }
        lines.append("error-page-for: \(errorSeconds ?? 0)")
        lines.append("sandbox: \(status.sandbox ?? "")")
        var health: [String] = []
        if status.isFailingClosed { health.append("failing closed") }
        if status.sandboxMissing { health.append("web processes not sandboxed") }
        if let errorSeconds, errorSeconds > maximumErrorSeconds { health.append("error page for \(errorSeconds) s") }
        lines.append("health: \(health.isEmpty ? "ok" : health.joined(separator: ", "))")
        return (lines, health.isEmpty ? 0 : 1)
    }
}
