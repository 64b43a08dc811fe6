// `[Policy] chrome-policies=DIR`: a Chrome/Chromium managed policy folder read as Chromium reads it,
// with the policies that have a Porthole meaning mapped onto the configuration.
import CGLib
import FoundationEssentials

/// What a Chrome policy folder (like `/etc/opt/chrome/policies/managed` or
/// `/etc/chromium/policies/managed`) says, as Chromium's `ConfigDirPolicyLoader` reads it:
/// - every regular file in the folder counts, not only `*.json` (Chromium enumerates all files);
/// - files are read in byte order of their names and a later file wins, policy by policy;
/// - a file that is not JSON (comments and trailing commas allowed), or not a JSON object, is
///   skipped with a notice at file:line:column. When no file is left, that is a problem: the
///   configuration fails closed, since the folder was meant to say something.
/// A file that exists but cannot be read is a problem too (an admin's file we cannot see may hold
/// the block list).
struct ChromePolicies {
    var allow: [String] = []
    var block: [String] = []
    /// The files read as policies, in name order (a skipped file has a notice instead).
    var files: [String] = []
    var problems: [ConfigProblem] = []
    var notices: [ConfigNotice] = []
    /// Porthole settings the policies set, in the order of the policies.
    var settings: [Setting] = []
    /// `HomepageLocation` and `RestoreOnStartupURLs`, as the sites to use when the Porthole
    /// files name none.
    var startPages: [StartPage] = []

    struct Setting {
        var key: ConfigKey
        var policy: String
        var file: String
        var line: Int?
        var assignment: ConfigSetting.Assignment
    }

    struct StartPage: Equatable {
        var policy: String
        var file: String
        var line: Int?
        var address: String
    }

    /// The URL lists, with the names Chrome read before version 86 and still reads when the new
    /// name is not set (https://chromeenterprise.google/policies/#URLAllowlist).
    static let lists: [(name: String, legacy: String, isAllow: Bool)] = [
        ("URLAllowlist", "URLWhitelist", true), ("URLBlocklist", "URLBlacklist", false),
    ]

    /// The content settings whose Chrome values map onto Porthole's permission model.
    static let permissionDefaults: [String: [Permission]] = [
        "DefaultGeolocationSetting": [.geolocation], "DefaultNotificationsSetting": [.notifications],
        "DefaultMediaStreamSetting": [.camera, .microphone], "DefaultClipboardSetting": [.clipboard],
    ]

    /// Every policy with a Porthole meaning, for "did you mean" hints.
    static let known: [String] = lists.flatMap { [$0.name, $0.legacy] } + [
        "HomepageLocation", "HomepageIsNewTabPage", "RestoreOnStartup", "RestoreOnStartupURLs", "PrintingEnabled",
        "ProxySettings", "ProxyMode", "ProxyServerMode", "ProxyServer", "ProxyBypassList", "ProxyPacUrl",
        "DownloadRestrictions", "IncognitoModeAvailability", "DefaultJavaScriptSetting",
    ] + permissionDefaults.keys.sorted()

    /// One policy in effect: the last file's value.
    private struct Entry {
        var name: String
        var node: JSONNode
        var file: Int
        var nameOffset: Int
    }

    /// A file read and parsed, with its positions for messages.
    private struct File {
        var path: String
        var positions: TextPositions
    }

    private var parsed: [File] = []
    private var proxyRead = false

    static func read(directory: String, validateFilter: FilterValidator, reader: ConfigFileReader = .standard) -> ChromePolicies {
        var policies = ChromePolicies()
        var error: UnsafeMutablePointer<GError>?
        guard let dir = g_dir_open(directory, 0, &error) else {
            policies.problems.append(ConfigProblem(file: directory, line: 0, key: "Policy/chrome-policies",
                                                   message: tr("cannot read the Chrome policy folder: {reason}")
                                                       .replacing("{reason}", with: takeErrorMessage(error))))
            return policies
        }
        var names: [String] = []
        while let entry = g_dir_read_name(dir) { names.append(String(cString: entry)) }
        g_dir_close(dir)
        var entries: [String: Entry] = [:]
        var order: [String] = []
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let path = directory + "/" + name
            // Chromium's FileEnumerator(FILES) passes over folders; everything else is read.
            guard g_file_test(path, G_FILE_TEST_IS_DIR) == 0 else { continue }
            policies.files.append(path)
            if !name.hasSuffix(".json") {
                policies.notices.append(ConfigNotice(origin: path, line: 0, message:
                    tr("read as a policy file: Chrome reads every file in its policy folder, whatever its name; move other files elsewhere")))
            }
            let bytes: [UInt8]
            do throws(ConfigProblem) {
                bytes = try KeyFileDocument.contents(of: path, reader: reader)
            } catch {
                var problem = error
                if problem.line == nil { problem.line = 0 }
                policies.problems.append(problem)
                continue
            }
            policies.readFile(path: path, bytes: bytes, into: &entries, order: &order)
        }
        if policies.parsed.isEmpty, policies.problems.isEmpty {
            policies.problems.append(ConfigProblem(file: directory, line: 0, key: "Policy/chrome-policies", message: policies.files.isEmpty
                ? tr("the Chrome policy folder has no policy files")
                : tr("no file in the Chrome policy folder could be read as policies")))
            return policies
        }
        // The files read as policies (--check-config says "ok" for each); skipped ones have a notice.
        policies.files = policies.parsed.map(\.path)
        for name in order {
            guard let entry = entries[name] else { continue }
            policies.apply(entry, all: entries, validateFilter: validateFilter)
        }
        return policies
    }

    /// Parses one file; its policies replace earlier files' policies of the same name.
    private mutating func readFile(path: String, bytes: [UInt8], into entries: inout [String: Entry], order: inout [String]) {
        var positions = TextPositions(bytes)
        let root: JSONNode
        do throws(JSONSyntaxError) {
            root = try JSONReader.parse(bytes)
        } catch {
            let at = positions.position(of: error.offset)
            notices.append(ConfigNotice(origin: "\(path):\(at.line):\(at.column)", line: at.line,
                                        message: tr("skipped, as Chrome skips it: not valid JSON: {reason}").replacing("{reason}", with: error.message)))
            return
        }
        guard case .object(let members) = root.value else {
            let at = positions.position(of: root.offset)
            notices.append(ConfigNotice(origin: "\(path):\(at.line):\(at.column)", line: at.line,
                                        message: tr("skipped, as Chrome skips it: expected a JSON object of policies, like {\"URLBlocklist\": [\"*\"]}")))
            return
        }
        let index = parsed.count
        var seen: [String: Int] = [:]
        seen.reserveCapacity(members.count)
        for member in members {
            if let first = seen[member.name] {
                let at = positions.position(of: member.nameOffset)
                let firstLine = positions.position(of: first).line
                problems.append(ConfigProblem(file: path, line: at.line, column: at.column, key: member.name,
                                              message: tr("set more than once (first on line {line})").filled(["line": String(firstLine)])))
                continue
            }
            seen[member.name] = member.nameOffset
            if let earlier = entries[member.name] {
                let at = positions.position(of: member.nameOffset)
                notices.append(ConfigNotice(origin: "\(path):\(at.line):\(at.column)", line: at.line,
                                            message: tr("{policy} replaces the value in {file}, as in Chrome (the last file in name order wins)")
                                                .filled(["policy": member.name, "file": parsed[earlier.file].path])))
            } else {
                order.append(member.name)
            }
            entries[member.name] = Entry(name: member.name, node: member.value, file: index, nameOffset: member.nameOffset)
        }
        parsed.append(File(path: path, positions: positions))
    }

    // MARK: - Policies

    private mutating func apply(_ entry: Entry, all entries: [String: Entry], validateFilter: FilterValidator) {
        let name = entry.name
        if let list = Self.lists.first(where: { $0.name == name || $0.legacy == name }) {
            if name == list.legacy, entries[list.name] != nil {
                notice(entry, tr("{policy} is ignored: {newer} is set, and Chrome then reads only {newer}").filled(["policy": name, "newer": list.name]))
                return
            }
            readFilters(entry, isAllow: list.isAllow, validateFilter: validateFilter)
            return
        }
        if let permissions = Self.permissionDefaults[name] {
            guard let value = integer(entry, in: 1...3) else { return }
            let names = permissions.map(\.rawValue).joined(separator: ", ")
            switch value {
            case 1: notice(entry, tr("{policy}=1 (allow) is not applied: Porthole grants {permissions} only per host, with [Privacy] permissions").filled(["policy": name, "permissions": names]))
            case 3: notice(entry, tr("{policy}=3 (ask) is not applied: Porthole never asks; {permissions} is refused unless [Privacy] permissions grants it").filled(["policy": name, "permissions": names]))
            default: break
            }
            return
        }
        switch name {
        case "HomepageLocation", "RestoreOnStartupURLs":
            readStartPages(entry, all: entries)
        case "HomepageIsNewTabPage", "RestoreOnStartup":
            // Read with the start pages they qualify.
            if name == "HomepageIsNewTabPage" { _ = boolean(entry) } else { _ = integer(entry, in: 0...5) }
        case "PrintingEnabled":
            if let value = boolean(entry) { set(entry, key: ConfigKey(group: "Kiosk", name: "printing")) { $0.kiosk.printing = value } }
        case "IncognitoModeAvailability":
            guard let value = integer(entry, in: 0...2) else { return }
            switch value {
            case 1: set(entry, key: ConfigKey(group: "Privacy", name: "ephemeral")) { $0.privacy.ephemeral = false }
            case 2: set(entry, key: ConfigKey(group: "Privacy", name: "ephemeral")) { $0.privacy.ephemeral = true }
            default: notice(entry, tr("{policy}=0 leaves [Privacy] ephemeral as the Porthole files set it").filled(["policy": name]))
            }
        case "DefaultJavaScriptSetting":
            guard let value = integer(entry, in: 1...2) else { return }
            set(entry, key: ConfigKey(group: "Browser", name: "javascript")) { $0.browser.javascript = value == 1 }
        case "DownloadRestrictions":
            guard let value = integer(entry, in: 0...4) else { return }
            if value != 3 { notice(entry, tr("{policy} is not applied: Porthole never downloads files, as with DownloadRestrictions=3").filled(["policy": name])) }
        case "ProxySettings":
            guard case .object(let members) = entry.node.value else { return problem(entry, tr("expected an object, like {\"ProxyMode\": \"fixed_servers\", \"ProxyServer\": \"proxy.example:3128\"}")) }
            var inner: [String: Entry] = [:]
            for member in members {
                guard ["ProxyMode", "ProxyServerMode", "ProxyServer", "ProxyBypassList", "ProxyPacUrl"].contains(member.name) else {
                    problem(Entry(name: member.name, node: member.value, file: entry.file, nameOffset: member.nameOffset), tr("unknown proxy setting"))
                    continue
                }
                inner[member.name] = Entry(name: "ProxySettings." + member.name, node: member.value, file: entry.file, nameOffset: member.nameOffset)
            }
            readProxy(inner, anchor: entry)
        case "ProxyMode", "ProxyServerMode", "ProxyServer", "ProxyBypassList", "ProxyPacUrl":
            // Chrome reads ProxySettings in place of the separate policies when it is set.
            if entries["ProxySettings"] != nil {
                notice(entry, tr("{policy} is ignored: ProxySettings is set, and Chrome then reads only ProxySettings").filled(["policy": name]))
            } else if !proxyRead {
                // The separate policies are read together, at the first of them.
                proxyRead = true
                var proxy: [String: Entry] = [:]
                for key in ["ProxyMode", "ProxyServerMode", "ProxyServer", "ProxyBypassList", "ProxyPacUrl"] { proxy[key] = entries[key] }
                if proxy["ProxyMode"] == nil, proxy["ProxyServerMode"] == nil, proxy["ProxyServer"] == nil {
                    notice(entry, tr("{policy} is ignored without ProxyMode, as in Chrome").filled(["policy": name]))
                } else {
                    readProxy(proxy, anchor: entry)
                }
            }
        default:
            if let suggestion = Self.suggestion(for: name) {
                problem(entry, tr("unknown policy (did you mean {policy}?)").filled(["policy": suggestion]))
            } else {
                notice(entry, tr("ignored: not a Porthole setting"))
            }
        }
    }

    /// A known policy `name` differs from only by case or by one edit.
    static func suggestion(for name: String) -> String? {
        let lower = name.lowercased()
        return known.first { $0.lowercased() == lower } ?? known.first { Self.withinOneEdit($0.lowercased(), lower) }
    }

    private static func withinOneEdit(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard abs(a.count - b.count) <= 1 else { return false }
        var i = 0, j = 0, edits = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] { i += 1; j += 1; continue }
            edits += 1
            if edits > 1 { return false }
            if a.count > b.count { i += 1 } else if b.count > a.count { j += 1 } else { i += 1; j += 1 }
        }
        return edits + (a.count - i) + (b.count - j) <= 1
    }

    /// URLAllowlist/URLBlocklist: a list of filters. Filters Chromium accepts that name nothing
    /// Porthole can load are left out with a notice, never read more widely.
    private mutating func readFilters(_ entry: Entry, isAllow: Bool, validateFilter: FilterValidator) {
        guard case .array(let elements) = entry.node.value else {
            return problem(entry, tr("expected a list of URL filters, like [\"example.com\"]"))
        }
        var seen = Set<String>(minimumCapacity: elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let filter) = element.value else {
                problem(entry, at: element.offset, tr("entry {index} is not a string").replacing("{index}", with: String(index + 1)))
                continue
            }
            if let reason = Self.chromeOnly(filter) {
                notice(entry, at: element.offset, tr("\"{filter}\" is left out: {reason}").filled(["filter": filter, "reason": reason]))
                continue
            }
            if let reason = validateFilter(filter) {
                problem(entry, at: element.offset, tr("\"{filter}\" is not a valid filter: {reason}").filled(["filter": filter, "reason": reason]))
                continue
            }
            guard seen.insert(filter).inserted else { continue }
            if isAllow { allow.append(filter) } else { block.append(filter) }
        }
    }

    /// Why a filter Chromium accepts means nothing in Porthole, or nil: `chrome://` names
    /// Chrome's own pages, which Porthole does not have (and must not hand to another program);
    /// a host starting with `*.` is, for Chromium's filter format, a host whose first label is a
    /// literal `*` (only a whole `*` host is a wildcard, see
    /// https://support.google.com/chrome/a/answer/9942583), which no site has.
    static func chromeOnly(_ filter: String) -> String? {
        // Most filters hold no `*` and do not start with a c: answered without a copy.
        guard filter.utf8.contains(UInt8(ascii: "*")) || filter.utf8.first.map({ $0 | 0x20 == UInt8(ascii: "c") }) == true else { return nil }
        var rest = Substring(filter)
        if let separator = rest.firstRange(of: "://") {
            let scheme = rest[..<separator.lowerBound].lowercased()
            if scheme == "chrome" || scheme == "chrome-untrusted" || scheme == "chrome-extension" {
                return tr("it names a page of Chrome's own, which Porthole does not have")
            }
            rest = rest[separator.upperBound...]
        } else if filter.lowercased().hasPrefix("chrome:") {
            return tr("it names a page of Chrome's own, which Porthole does not have")
        }
        if let at = rest.firstIndex(of: "@"), !rest[..<at].contains("/") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("*.") || rest.hasPrefix(".*.") {
            return tr("Chrome reads *. as a host named \"*\", which matches no site; write the domain alone (example.com matches it and its subdomains)")
        }
        return nil
    }

    /// HomepageLocation, and RestoreOnStartupURLs when RestoreOnStartup is 4 (Chrome opens them
    /// only then). Read once, when the first of the two comes up.
    private mutating func readStartPages(_ entry: Entry, all entries: [String: Entry]) {
        if entry.name == "RestoreOnStartupURLs", entries["HomepageLocation"] != nil { return }
        if let home = entries["HomepageLocation"] {
            let newTab: Bool
            if let flag = entries["HomepageIsNewTabPage"], case .bool(let value) = flag.node.value { newTab = value } else { newTab = false }
            if case .string(let address) = home.node.value {
                if newTab {
                    notice(home, tr("HomepageLocation is not used: HomepageIsNewTabPage is true"))
                } else {
                    addStartPage(home, address: address, at: home.node.offset)
                }
            } else {
                problem(home, tr("expected a URL, like \"https://school.example/\""))
            }
        }
        guard let urls = entries["RestoreOnStartupURLs"] else { return }
        guard case .array(let elements) = urls.node.value else { return problem(urls, tr("expected a list of URLs, like [\"https://school.example/\"]")) }
        var mode: Double?
        if let restore = entries["RestoreOnStartup"], case .number(let value) = restore.node.value { mode = value }
        guard mode == 4 else {
            return notice(urls, tr("RestoreOnStartupURLs is not used: Chrome opens them only with RestoreOnStartup=4"))
        }
        for (index, element) in elements.enumerated() {
            guard case .string(let address) = element.value else {
                problem(urls, at: element.offset, tr("entry {index} is not a string").replacing("{index}", with: String(index + 1)))
                continue
            }
            addStartPage(urls, address: address, at: element.offset)
        }
    }

    private mutating func addStartPage(_ entry: Entry, address: String, at offset: Int) {
        if case .failure(let invalid) = AddressRules.siteIdentity(address) {
            return problem(entry, at: offset, invalid.message)
        }
        let line = parsed[entry.file].positions.position(of: offset).line
        if !startPages.contains(where: { $0.address == address }) {
            startPages.append(StartPage(policy: entry.name, file: parsed[entry.file].path, line: line, address: address))
        }
    }

    /// ProxyMode (or the old ProxyServerMode), ProxyServer and ProxyBypassList, as
    /// `[Network] proxy` and `proxy-ignore`. A mode Porthole cannot follow (a PAC script, WPAD)
    /// is a problem: requests would otherwise skip a proxy that may be what filters them.
    private mutating func readProxy(_ proxy: [String: Entry], anchor: Entry) {
        var mode: String?
        if let entry = proxy["ProxyMode"] {
            guard case .string(let text) = entry.node.value else { return problem(entry, tr("expected one of direct, system, fixed_servers, pac_script, auto_detect")) }
            mode = text
        } else if let entry = proxy["ProxyServerMode"] {
            guard let value = integer(entry, in: 0...3) else { return }
            mode = ["direct", "auto_detect", "fixed_servers", "system"][value]
        }
        let modeEntry = proxy["ProxyMode"] ?? proxy["ProxyServerMode"] ?? anchor
        switch mode {
        case "system":
            set(modeEntry, key: ConfigKey(group: "Network", name: "proxy")) { $0.network.proxy = nil }
        case "direct":
            notice(modeEntry, tr("ProxyMode direct is not applied: Porthole follows the system's proxy settings unless [Network] proxy is set"))
        case "fixed_servers", nil:
            guard let server = proxy["ProxyServer"] else {
                return problem(modeEntry, tr("ProxyMode fixed_servers needs ProxyServer, like \"proxy.example:3128\""))
            }
            guard case .string(let text) = server.node.value else { return problem(server, tr("expected a proxy, like \"proxy.example:3128\"")) }
            let trimmed = text.trimmingWhitespace
            if trimmed.contains("=") || trimmed.contains(";") || trimmed.contains(",") {
                return problem(server, tr("proxies per scheme are not supported: write one proxy, like \"proxy.example:3128\""))
            }
            let address = trimmed.contains("://") ? trimmed : "http://" + trimmed
            if let reason = ProxyRules.proxyProblem(address) { return problem(server, reason) }
            set(server, key: ConfigKey(group: "Network", name: "proxy")) { $0.network.proxy = address }
            var ignore: [String] = []
            if let bypass = proxy["ProxyBypassList"] {
                guard case .string(let list) = bypass.node.value else { return problem(bypass, tr("expected hosts separated by commas, like \"intranet.example, 10.0.0.0/8\"")) }
                for item in list.split(whereSeparator: { $0 == "," || $0 == ";" }) {
                    let host = String(item).trimmingWhitespace
                    guard !host.isEmpty else { continue }
                    if let reason = ProxyRules.ignoreProblem(host) { problem(bypass, reason); continue }
                    ignore.append(host)
                }
            }
            set(proxy["ProxyBypassList"] ?? server, key: ConfigKey(group: "Network", name: "proxy-ignore")) { [ignore] in $0.network.proxyIgnore = ignore }
        default:
            problem(modeEntry, tr("ProxyMode {mode} is not supported: Porthole cannot use a PAC script or WPAD; write ProxyMode fixed_servers with ProxyServer")
                        .filled(["mode": mode ?? ""]))
        }
    }

    // MARK: - Values and messages

    private mutating func boolean(_ entry: Entry) -> Bool? {
        guard case .bool(let value) = entry.node.value else { problem(entry, tr("expected true or false")); return nil }
        return value
    }

    private mutating func integer(_ entry: Entry, in range: ClosedRange<Int>) -> Int? {
        guard case .number(let value) = entry.node.value, value.rounded() == value, let integer = Int(exactly: value), range.contains(integer) else {
            problem(entry, tr("expected a whole number from {lowest} to {highest}").filled(["lowest": String(range.lowerBound), "highest": String(range.upperBound)]))
            return nil
        }
        return integer
    }

    private mutating func set(_ entry: Entry, key: ConfigKey, _ assignment: @escaping ConfigSetting.Assignment) {
        let line = parsed[entry.file].positions.position(of: entry.nameOffset).line
        settings.append(Setting(key: key, policy: entry.name, file: parsed[entry.file].path, line: line, assignment: assignment))
    }

    private mutating func problem(_ entry: Entry, at offset: Int? = nil, _ message: String) {
        let at = parsed[entry.file].positions.position(of: offset ?? entry.nameOffset)
        problems.append(ConfigProblem(file: parsed[entry.file].path, line: at.line, column: at.column, key: entry.name, message: message))
    }

    private mutating func notice(_ entry: Entry, at offset: Int? = nil, _ message: String) {
        let file = parsed[entry.file].path
        let at = parsed[entry.file].positions.position(of: offset ?? entry.nameOffset)
        notices.append(ConfigNotice(origin: "\(file):\(at.line):\(at.column)", line: at.line, message: entry.name + ": " + message))
    }
}
