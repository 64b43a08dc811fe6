// One configuration file read and checked: what it sets, its sites, its locks, its problems.

/// `[Locks] keys=`: whole groups and single keys.
struct ConfigLocks {
    var groups: Set<String> = []
    var keys: Set<ConfigKey> = []

    func covers(_ key: ConfigKey) -> Bool { groups.contains(key.group) || keys.contains(key) }
}

/// One file read and checked: what it sets, its sites, its locks, its problems.
struct ConfigLayer {
    /// One key the file sets; `assignment` is nil when the value is invalid (a problem says why).
    struct Attempt {
        var key: ConfigKey
        var line: Int?
        var assignment: ConfigSetting.Assignment?
    }

    let role: ConfigRole
    let file: String
    var attempts: [Attempt] = []
    /// The `[Sites]` entries that are valid, or nil when the file has no `[Sites]` group.
    var sites: [Site]?
    var sitesLine: Int?
    var locks = ConfigLocks()
    var problems: [ConfigProblem] = []
    var notices: [ConfigNotice] = []

    var origin: String { role.origin(file) }

    init(document: KeyFileDocument, role: ConfigRole, validateFilter: @escaping FilterValidator) {
        self.role = role
        file = document.file
        for group in document.groups {
            let line = document.lines.headerLine(of: group)
            switch group {
            case ConfigSchema.sites:
                readSites(document)
            case ConfigSchema.locks where role.isSystemLayer:
                readLocks(document)
            case ConfigSchema.locks:
                notices.append(ConfigNotice(origin: origin, line: line,
                                            message: tr("[{group}] is ignored: only the system file {file} and {folder} can lock keys").filled(["group": group, "file": ConfigSources.systemPath, "folder": ConfigSources.systemDropInPath])))
            case _ where ConfigSchema.groups.contains(group):
                readSettings(document, group: group, validateFilter: validateFilter)
            default:
                let hint = ConfigSchema.suggestion(for: group, among: ConfigSchema.groups).map { " " + tr("(did you mean [{group}]?)").filled(["group": $0]) } ?? ""
                problems.append(problem(line, key: "[\(group)]", tr("unknown group") + hint))
            }
        }
        reportRepeatedKeys(document.lines)
        // GKeyFile reads `key[de]=` as a translation of `key` and lists it nowhere Porthole looks.
        for group in document.groups where group != ConfigSchema.locks || role.isSystemLayer {
            for (name, lines) in document.lines.keyLines(in: group) where name.contains("[") {
                problems.append(problem(lines.first, key: group + "/" + name, tr("a key with a [locale] is not read: Porthole has no translated values")))
            }
        }
        for line in document.lines.malformedLines {
            problems.append(problem(line, key: nil, tr("not a key=value line, a [group] header or a comment: GLib would pass over it")))
        }
        // In file order; problems on one line keep the order they were found in.
        problems = problems.enumerated()
            .sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }
            .map(\.element)
    }

    private mutating func readSettings(_ document: KeyFileDocument, group: String, validateFilter: @escaping FilterValidator) {
        for name in document.keys(in: group) {
            let key = ConfigKey(group: group, name: name)
            let lines = document.lines.lines(of: name, in: group)
            guard let setting = ConfigSchema.setting(key) else {
                problems.append(unknownKey(key, line: lines?.first))
                continue
            }
            // GKeyFile keeps the last value of a repeated key, so that is the line to point at.
            switch setting.read(SettingReader(document: document, key: key, validateFilter: validateFilter)) {
            case .success(let assignment):
                attempts.append(Attempt(key: key, line: lines?.last, assignment: assignment))
                if key == ConfigSchema.exitPinHash, case .success(let text) = document.string(key), ExitPinHash(text)?.isLegacy == true {
                    notices.append(ConfigNotice(origin: origin, line: lines?.last, message: key.description + ": "
                        + tr("the old sha256: form can be reversed in milliseconds; make a new line with porthole --hash-pin")))
                }
            case .failure(let invalid):
                problems += invalid.messages.map { problem(lines?.last, key: key.description, $0) }
                attempts.append(Attempt(key: key, line: lines?.last, assignment: nil))
            }
        }
    }

    /// `Display name=host or URL` entries in file order, each a valid address, no address twice.
    private mutating func readSites(_ document: KeyFileDocument) {
        let group = ConfigSchema.sites
        sitesLine = document.lines.headerLine(of: group)
        let names = document.keys(in: group)
        if names.isEmpty {
            problems.append(problem(sitesLine, key: "[\(group)]", tr("no sites: list at least one, like Example=example.com")))
        }
        let keyLines = document.lines.keyLines(in: group)
        var sites: [Site] = []
        sites.reserveCapacity(names.count)
        var firstByIdentity: [String: (name: String, line: Int?)] = [:]
        firstByIdentity.reserveCapacity(names.count)
        for name in names {
            let key = ConfigKey(group: group, name: name)
            let line = keyLines[name]?.last
            switch document.string(key) {
            case .failure(let invalid):
                problems += invalid.messages.map { problem(line, key: key.description, $0) }
            case .success(let address):
                let identity: String
                switch AddressRules.siteIdentity(address) {
                case .success(let checked):
                    identity = checked
                case .failure(let invalid):
                    problems.append(problem(line, key: key.description, invalid.message))
                    continue
                }
                // One hash in the usual case: a duplicate puts the first site back.
                if let first = firstByIdentity.updateValue((name, line), forKey: identity) {
                    firstByIdentity[identity] = first
                    let seen = first.line.map { " " + tr("(line {line})").filled(["line": String($0)]) } ?? ""
                    problems.append(problem(line, key: key.description, tr("duplicate site: same address as {name}").filled(["name": first.name]) + seen))
                    continue
                }
                sites.append(Site(name: name, address: address))
            }
        }
        self.sites = sites
    }

    /// `keys=Group/key;Group`: every entry names a known key, or a group to lock whole.
    private mutating func readLocks(_ document: KeyFileDocument) {
        let group = ConfigSchema.locks
        for name in document.keys(in: group) where name != ConfigSchema.lockedKeys.name {
            problems.append(unknownKey(ConfigKey(group: group, name: name), line: document.lines.lines(of: name, in: group)?.first))
        }
        guard document.hasKey(ConfigSchema.lockedKeys) else { return }
        let key = ConfigSchema.lockedKeys
        let line = document.lines.lines(of: key.name, in: group)?.last
        switch document.stringList(key) {
        case .failure(let invalid):
            problems += invalid.messages.map { problem(line, key: key.description, $0) }
        case .success(let entries):
            for entry in entries {
                let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
                let lockable = ConfigSchema.groups.filter { $0 != group }
                if parts.count == 1, lockable.contains(entry) {
                    locks.groups.insert(entry)
                } else if parts.count == 2, parts[0] == ConfigSchema.sites {
                    problems.append(problem(line, key: key.description, tr("\"{entry}\": [Sites] is locked as a whole; write Sites").filled(["entry": entry])))
                } else if parts.count == 2, ConfigSchema.setting(ConfigKey(group: parts[0], name: parts[1])) != nil {
                    locks.keys.insert(ConfigKey(group: parts[0], name: parts[1]))
                } else {
                    problems.append(problem(line, key: key.description, tr("\"{entry}\" is not a group or Group/key that can be locked").filled(["entry": entry])))
                }
            }
        }
    }

    /// GKeyFile keeps one value of a key written twice, silently; a repeated key is a mistake to
    /// point out, and for `[Sites]` it would hide a site.
    private mutating func reportRepeatedKeys(_ lines: KeyFileLines) {
        let checked = ConfigSchema.groups.filter { $0 != ConfigSchema.locks || role.isSystemLayer }
        for repeated in lines.repeats where checked.contains(repeated.group) {
            let key = ConfigKey(group: repeated.group, name: repeated.key)
            let what = repeated.group == ConfigSchema.sites
                ? tr("duplicate site name (first on line {line})") : tr("set more than once (first on line {line})")
            problems.append(problem(repeated.line, key: key.description, what.filled(["line": String(repeated.first)])))
        }
    }

    private func unknownKey(_ key: ConfigKey, line: Int?) -> ConfigProblem {
        let hint = ConfigSchema.suggestion(for: key.name, among: ConfigSchema.keys(in: key.group)).map { " " + tr("(did you mean {key}?)").filled(["key": $0]) } ?? ""
        return problem(line, key: key.description, tr("unknown key") + hint)
    }

    /// A problem on `line`; a file's problem whose line is not known is placed on the file as a
    /// whole (line 0), so that every problem in a file says where.
    private func problem(_ line: Int?, key: String?, _ message: String) -> ConfigProblem {
        ConfigProblem(file: file, line: role == .commandLine ? line : line ?? 0, key: key, message: message)
    }
}
