// Every key the configuration understands: its group, how its value is read and checked, and
// where it lands in Configuration. `[Sites]` and `[Locks]` have their own shapes (ConfigLoader).

/// Checks one `[Policy]` filter; returns why it is invalid, or nil when it is valid. The loader
/// takes it as a parameter so that Core's config model does not depend on the filter engine.
public typealias FilterValidator = @Sendable (String) -> String?

/// One `[Group] key=` setting.
struct ConfigSetting: Sendable {
    typealias Assignment = (inout Configuration) -> Void

    let key: ConfigKey
    /// The value as a change to Configuration, or why it cannot be used.
    let read: @Sendable (SettingReader) -> Result<Assignment, InvalidConfigValue>

    static func value<Value>(_ group: String, _ name: String,
                             read: @escaping @Sendable (SettingReader) -> Result<Value, InvalidConfigValue>,
                             assign: @escaping @Sendable (inout Configuration, Value) -> Void) -> ConfigSetting {
        ConfigSetting(key: ConfigKey(group: group, name: name)) { reader in
            read(reader).map { value -> Assignment in { assign(&$0, value) } }
        }
    }
}

/// Reads one key of one document as the type its setting wants, with the message shown when it is not.
struct SettingReader {
    let document: KeyFileDocument
    let key: ConfigKey
    let validateFilter: FilterValidator

    func boolean() -> Result<Bool, InvalidConfigValue> {
        document.boolean(key).map { .success($0) } ?? .failure(InvalidConfigValue(tr("expected true or false")))
    }

    /// A count of seconds, 0 or more, or nothing (an empty value: the default for the mode).
    func optionalSeconds() -> Result<Int?, InvalidConfigValue> {
        if case .success(let text) = document.string(key), text.trimmingWhitespace.isEmpty { return .success(nil) }
        return seconds().map { Optional($0) }
    }

    /// A count of seconds, 0 or more.
    func seconds() -> Result<Int, InvalidConfigValue> {
        guard let value = document.integer(key) else { return .failure(InvalidConfigValue(tr("expected a whole number of seconds"))) }
        return value >= 0 ? .success(value) : .failure(InvalidConfigValue(tr("out of range: expected 0 or more")))
    }

    func number(in range: ClosedRange<Double>) -> Result<Double, InvalidConfigValue> {
        guard let value = document.number(key) else { return .failure(InvalidConfigValue(tr("expected a number, like 1.25"))) }
        guard range.contains(value) else {
            return .failure(InvalidConfigValue(tr("out of range: expected {lowest} to {highest}")
                .filled(["lowest": String(range.lowerBound), "highest": String(range.upperBound)])))
        }
        return .success(value)
    }

    /// The text, checked by `check` (which returns why it is wrong, or nil).
    func string(check: (String) -> String? = { _ in nil }) -> Result<String, InvalidConfigValue> {
        document.string(key).flatMap { text in check(text).map { .failure(InvalidConfigValue($0)) } ?? .success(text) }
    }

    /// One of an enumeration's raw values, as written (`allow`, `policy`).
    func choice<Choice: RawRepresentable & CaseIterable>(_ type: Choice.Type) -> Result<Choice, InvalidConfigValue>
    where Choice.RawValue == String {
        string().flatMap { text in
            guard let value = Choice(rawValue: text) else {
                let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(InvalidConfigValue(tr("expected one of {choices}").replacing("{choices}", with: names)))
            }
            return .success(value)
        }
    }

    /// The text, or nil when it is empty (which clears a value a lower layer set).
    func optionalString(check: (String) -> String?) -> Result<String?, InvalidConfigValue> {
        string { $0.isEmpty ? nil : check($0) }.map { $0.isEmpty ? nil : $0 }
    }

    /// The entries, each checked by `check`; one message per bad entry.
    func list(each check: (String) -> String?) -> Result<[String], InvalidConfigValue> {
        document.stringList(key).flatMap { entries in
            let messages = entries.compactMap(check)
            return messages.isEmpty ? .success(entries) : .failure(InvalidConfigValue(messages: messages))
        }
    }

    func filters() -> Result<[String], InvalidConfigValue> {
        list { filter in validateFilter(filter).map { tr("\"{filter}\" is not a valid filter: {reason}").filled(["filter": filter, "reason": $0]) } }
    }

    /// `[Policy] block=`: filters, or `none` to block nothing. An empty value is a problem: it is
    /// what a file cut short while it was rewritten ends with, and it would block nothing.
    func blockFilters() -> Result<[String], InvalidConfigValue> {
        filters().flatMap { entries in
            if entries.isEmpty {
                return .failure(InvalidConfigValue(tr("empty: write block=* to block everything the sites and allow= do not allow, or block=none to block nothing")))
            }
            guard entries.contains("none") else { return .success(entries) }
            return entries.count == 1 ? .success([]) : .failure(InvalidConfigValue(tr("none cannot be combined with filters")))
        }
    }

    func hosts() -> Result<[String], InvalidConfigValue> {
        list { AddressRules.isHost($0) ? nil : tr("\"{host}\" is not a host name or IP address").filled(["host": $0]) }
    }

    /// `auto`, `true` or `false`; empty leaves the choice to kiosk mode.
    func keyboardMode() -> Result<KeyboardMode?, InvalidConfigValue> {
        optionalString { KeyboardMode(rawValue: $0) == nil ? tr("expected auto, true or false, or nothing") : nil }
            .map { $0.flatMap(KeyboardMode.init(rawValue:)) }
    }

    /// The last `:` of a grant, as a `Character` search finds it; on bytes when the entry is
    /// ASCII (every byte a `Character`), since 100,000 grants are read on every load.
    private static func lastColon(in entry: String) -> String.Index? {
        let offset = entry.withUTF8Bytes { bytes -> Int?? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            return .some(bytes.lastIndex(of: UInt8(ascii: ":")))
        }
        guard let offset else { return entry.lastIndex(of: ":") }
        return offset.map { entry.utf8.index(entry.utf8.startIndex, offsetBy: $0) }
    }

    /// `auto`, or a boolean as GKeyFile reads one.
    func swipeNavigation() -> Result<SwipeNavigation, InvalidConfigValue> {
        autoOrBoolean().map { $0.map { $0 ? .on : .off } ?? .auto }
    }

    /// `auto`, or a boolean as GKeyFile reads one.
    func gpuPainting() -> Result<GPUPainting, InvalidConfigValue> {
        autoOrBoolean().map { $0.map { $0 ? .on : .off } ?? .auto }
    }

    /// `auto`, or a boolean as GKeyFile reads one.
    func sandbox() -> Result<WebProcessSandbox, InvalidConfigValue> {
        autoOrBoolean().map { $0.map { $0 ? .on : .off } ?? .auto }
    }

    /// nil for `auto`, else the boolean GKeyFile reads.
    private func autoOrBoolean() -> Result<Bool?, InvalidConfigValue> {
        if case .success(let text) = document.string(key), text == "auto" { return .success(nil) }
        return document.boolean(key).map { .success($0) } ?? .failure(InvalidConfigValue(tr("expected auto, true or false")))
    }

    /// `true` or `false`; empty leaves the choice to kiosk mode.
    func optionalBoolean() -> Result<Bool?, InvalidConfigValue> {
        if case .success(let text) = document.string(key), text.isEmpty { return .success(nil) }
        return document.boolean(key).map { .success($0) } ?? .failure(InvalidConfigValue(tr("expected true or false, or nothing")))
    }

    /// One or more layout names, each at most once.
    func keyboardLanguages() -> Result<[KeyboardLanguage], InvalidConfigValue> {
        let names = KeyboardLanguage.allCases.map(\.rawValue).joined(separator: ", ")
        return list { name in
            KeyboardLanguage(rawValue: name) != nil ? nil
                : tr("unknown keyboard layout \"{name}\": expected one of {names}").replacing("{name}", with: name).replacing("{names}", with: names)
        }
            .flatMap { entries in
                if entries.isEmpty { return .failure(InvalidConfigValue(tr("expected at least one layout, like en;ru"))) }
                if Set(entries).count != entries.count { return .failure(InvalidConfigValue(tr("a layout is listed twice"))) }
                return .success(entries.compactMap(KeyboardLanguage.init(rawValue:)))
            }
    }

    func shortcuts() -> Result<[KioskShortcut], InvalidConfigValue> {
        let names = KioskShortcut.allCases.map(\.rawValue).joined(separator: ", ")
        return list { KioskShortcut(rawValue: $0) == nil ? tr("unknown shortcut \"{name}\": expected one of {names}").filled(["name": $0, "names": names]) : nil }
            .map { $0.compactMap(KioskShortcut.init(rawValue:)) }
    }

    /// GTK accelerators, each a key with or without modifiers (a keypad's `KP_Multiply` has none).
    func speechKeys() -> Result<[KeyChord], InvalidConfigValue> {
        list(each: { KeyChord(accelerator: $0) == nil ? tr("\"{text}\" is not a key, like <Control><Alt>z or KP_Multiply").filled(["text": $0]) : nil })
            .map { $0.compactMap(KeyChord.init(accelerator:)) }
    }

    /// `auto`, `true` or `false`.
    func siteMenu() -> Result<KioskSiteMenu, InvalidConfigValue> {
        string().flatMap { KioskSiteMenu(rawValue: $0.lowercased()).map { .success($0) } ?? .failure(InvalidConfigValue("expected auto, true or false")) }
    }

    /// `deny-all`, or `host:permission` grants.
    func permissions() -> Result<[PermissionGrant], InvalidConfigValue> {
        let names = Permission.allCases.map(\.rawValue).joined(separator: ", ")
        return document.stringList(key).flatMap { entries in
            var grants: [PermissionGrant] = []
            grants.reserveCapacity(entries.count)
            var seen = Set<PermissionGrant>(minimumCapacity: entries.count)
            var messages: [String] = []
            for entry in entries {
                if entry == "deny-all" {
                    if entries.count > 1 { messages.append(tr("deny-all cannot be combined with grants")) }
                    continue
                }
                guard let colon = Self.lastColon(in: entry) else {
                    messages.append(tr("\"{entry}\" is not a grant: expected host:permission, like maps.example.com:geolocation, or deny-all").filled(["entry": entry]))
                    continue
                }
                let host = String(entry[..<colon])
                let name = String(entry[entry.index(after: colon)...])
                guard AddressRules.isHost(host) else {
                    messages.append(tr("\"{entry}\": \"{host}\" is not a host name or IP address").filled(["entry": entry, "host": host]))
                    continue
                }
                guard let permission = Permission(rawValue: name) else {
                    messages.append(tr("\"{entry}\": unknown permission \"{name}\": expected one of {names}").filled(["entry": entry, "name": name, "names": names]))
                    continue
                }
                let grant = PermissionGrant(host: host, permission: permission)
                if seen.insert(grant).inserted { grants.append(grant) }
            }
            return messages.isEmpty ? .success(grants) : .failure(InvalidConfigValue(messages: messages))
        }
    }
}

enum ConfigSchema {
    static let sites = "Sites"
    static let locks = "Locks"
    /// `[Locks] keys=`: the keys (`Group/key`) and whole groups (`Group`) users cannot override.
    static let lockedKeys = ConfigKey(group: locks, name: "keys")
    /// `[Kiosk] exit-pin-hash=`, which the loader also checks for the old form.
    static let exitPinHash = ConfigKey(group: "Kiosk", name: "exit-pin-hash")
    /// The groups a file may have, in the order the documentation lists them.
    static let groups = [sites, "Policy", "Browser", "Privacy", "Kiosk", "Accessibility", "Network", locks]

    static let settings: [ConfigSetting] = [
        .value("Policy", "allow", read: { $0.filters() }, assign: { $0.allow = $1 }),
        .value("Policy", "block", read: { $0.blockFilters() }, assign: { $0.block = $1 }),
        .value("Policy", "chrome-policies", read: { $0.optionalString(check: absolutePathProblem) },
               assign: { $0.chromePolicies = $1 }),
        .value("Policy", "subresources", read: { $0.choice(SubresourcePolicy.self) }, assign: { $0.subresources = $1 }),

        .value("Browser", "javascript", read: { $0.boolean() }, assign: { $0.browser.javascript = $1 }),
        .value("Browser", "https-only", read: { $0.boolean() }, assign: { $0.browser.httpsOnly = $1 }),
        .value("Browser", "swipe-navigation", read: { $0.swipeNavigation() }, assign: { $0.browser.swipeNavigation = $1 }),
        .value("Browser", "gpu-painting", read: { $0.gpuPainting() }, assign: { $0.browser.gpuPainting = $1 }),
        .value("Browser", "sandbox", read: { $0.sandbox() }, assign: { $0.browser.sandbox = $1 }),
        .value("Browser", "zoom", read: { $0.number(in: 0.25...5.0) }, assign: { $0.browser.zoom = $1 }),
        .value("Browser", "user-agent-suffix", read: { $0.string(check: noControlCharacters) },
               assign: { $0.browser.userAgentSuffix = $1 }),
        .value("Browser", "pinch-zoom", read: { $0.optionalBoolean() }, assign: { $0.browser.pinchZoom = $1 }),
        .value("Browser", "unresponsive-timeout", read: { $0.optionalSeconds() }, assign: { $0.browser.unresponsiveTimeout = $1 }),
        .value("Browser", "tls-exceptions", read: { $0.hosts() }, assign: { $0.browser.tlsExceptions = $1 }),
        .value("Browser", "languages", read: { $0.list(each: Localization.languageTagProblem) }, assign: { $0.browser.languages = $1 }),

        .value("Privacy", "ephemeral", read: { $0.boolean() }, assign: { $0.privacy.ephemeral = $1 }),
        .value("Privacy", "permissions", read: { $0.permissions() }, assign: { $0.privacy.grants = $1 }),

        .value("Kiosk", "enabled", read: { $0.boolean() }, assign: { $0.kiosk.enabled = $1 }),
        .value("Kiosk", "toolbar", read: { $0.boolean() }, assign: { $0.kiosk.toolbar = $1 }),
        .value("Kiosk", "shortcuts", read: { $0.shortcuts() }, assign: { $0.kiosk.shortcuts = $1 }),
        .value("Kiosk", "printing", read: { $0.boolean() }, assign: { $0.kiosk.printing = $1 }),
        .value("Kiosk", "idle-timeout", read: { $0.seconds() }, assign: { $0.kiosk.idleTimeout = $1 }),
        .value("Kiosk", "idle-warning", read: { $0.seconds() }, assign: { $0.kiosk.idleWarning = $1 }),
        .value("Kiosk", "hide-cursor", read: { $0.seconds() }, assign: { $0.kiosk.hideCursor = $1 }),
        .value("Kiosk", "reload-every", read: { $0.seconds() }, assign: { $0.kiosk.reloadEvery = $1 }),
        .value("Kiosk", "exit-pin-hash", read: { $0.optionalString(check: pinHashProblem).map { $0.flatMap(ExitPinHash.init) } },
               assign: { $0.kiosk.exitPinHash = $1 }),
        .value("Kiosk", "site-menu", read: { $0.siteMenu() }, assign: { $0.kiosk.siteMenu = $1 }),
        .value("Kiosk", "exit-chord", read: { $0.optionalString(check: acceleratorProblem) },
               assign: { $0.kiosk.exitChord = $1 }),
        .value("Kiosk", "keyboard", read: { $0.keyboardMode() }, assign: { $0.kiosk.keyboard.mode = $1 }),
        .value("Kiosk", "keyboard-layouts", read: { $0.keyboardLanguages() }, assign: { $0.kiosk.keyboard.languages = $1 }),
        .value("Kiosk", "keyboard-height", read: { $0.number(in: KeyboardSettings.heightRange) },
               assign: { $0.kiosk.keyboard.height = $1 }),

        .value("Accessibility", "speech-key", read: { $0.speechKeys() }, assign: { $0.speech.keys = $1 }),
        .value("Accessibility", "speech-rate", read: { $0.number(in: SpeechSettings.rateRange) }, assign: { $0.speech.rate = $1 }),
        .value("Accessibility", "more-time", read: { $0.seconds() }, assign: { $0.accessibility.moreTime = $1 }),
        .value("Accessibility", "idle-factor-with-speech", read: { $0.number(in: AccessibilitySettings.idleFactorRange) },
               assign: { $0.accessibility.idleFactorWithSpeech = $1 }),
        .value("Accessibility", "large-text", read: { $0.boolean() }, assign: { $0.accessibility.largeText = $1 }),
        .value("Accessibility", "large-text-scale", read: { $0.number(in: AccessibilitySettings.largeTextScaleRange) },
               assign: { $0.accessibility.largeTextScale = $1 }),
        .value("Accessibility", "high-contrast", read: { $0.boolean() }, assign: { $0.accessibility.highContrast = $1 }),

        .value("Network", "proxy", read: { $0.optionalString(check: ProxyRules.proxyProblem) },
               assign: { $0.network.proxy = $1 }),
        .value("Network", "proxy-ignore", read: { $0.list(each: ProxyRules.ignoreProblem) },
               assign: { $0.network.proxyIgnore = $1 }),
    ]

    private static let settingsByKey = Dictionary(uniqueKeysWithValues: settings.map { ($0.key, $0) })

    static func setting(_ key: ConfigKey) -> ConfigSetting? { settingsByKey[key] }

    /// The keys `group` may hold (for `[Sites]`, any name).
    static func keys(in group: String) -> [String] {
        group == locks ? [lockedKeys.name] : settings.filter { $0.key.group == group }.map(\.key.name)
    }

    /// A known name close to `name` (same letters in another case, or one or two typos), to
    /// suggest in an "unknown" message.
    static func suggestion(for name: String, among known: [String]) -> String? {
        let lower = name.lowercased()
        return known.first { $0.lowercased() == lower }
            ?? known.first { withinTwoEdits(Array($0.lowercased().utf8), Array(lower.utf8)) }
    }

    /// Whether the edit distance of `a` and `b` (on UTF-8 bytes) is at most 2. Names more than
    /// two bytes apart in length are answered at once: a file of 160,000 unknown groups asks
    /// this 160,000 times for each known name.
    private static func withinTwoEdits(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard abs(a.count - b.count) <= 2 else { return false }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 0..<a.count {
            current[0] = i + 1
            for j in 0..<b.count {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count] <= 2
    }

    private static func noControlCharacters(_ text: String) -> String? {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control } ? tr("must not contain control characters") : nil
    }

    private static func absolutePathProblem(_ text: String) -> String? {
        text.hasPrefix("/") ? nil : tr("expected an absolute folder path, like /etc/chromium/policies/managed")
    }

    private static func pinHashProblem(_ text: String) -> String? {
        ExitPinHash(text) == nil
            ? tr("expected a hash printed by porthole --hash-pin, like $y$j9T$…, or the old sha256:SALT_HEX:HASH_HEX")
            : nil
    }

    /// GTK accelerator syntax (`<Modifier>...key`, as `gtk_accelerator_parse` reads it) with at
    /// least one modifier, so the exit chord cannot be typed by accident.
    private static func acceleratorProblem(_ text: String) -> String? {
        let modifiers = ["control", "ctrl", "ctl", "primary", "shift", "shft", "alt", "meta", "super", "hyper",
                         "mod1", "mod2", "mod3", "mod4", "mod5", "release"]
        var rest = Substring(text)
        var count = 0
        while rest.hasPrefix("<"), let close = rest.firstIndex(of: ">") {
            let modifier = rest[rest.index(after: rest.startIndex)..<close].lowercased()
            guard modifiers.contains(modifier) else { return tr("unknown modifier <{modifier}> in \"{text}\"").filled(["modifier": modifier, "text": text]) }
            if modifier != "release" { count += 1 }
            rest = rest[rest.index(after: close)...]
        }
        let isKeyName = !rest.isEmpty && rest.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
        return isKeyName && count > 0 ? nil : tr("\"{text}\" is not a key with at least one modifier, like <Control><Alt>q").filled(["text": text])
    }
}
