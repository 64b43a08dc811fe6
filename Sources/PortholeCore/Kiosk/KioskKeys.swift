// Which key presses a kiosk lets through: the shortcut allowlist and the admin's exit chord.

/// A key with its modifiers, named as GDK names keys (`q`, `F5`, `Left`, `Escape`, `KP_Add`).
/// Letters are lowercase: Shift is a modifier, not a different key.
public struct KeyChord: Sendable, Hashable, CustomStringConvertible {
    public struct Modifiers: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let control = Modifiers(rawValue: 1)
        public static let alt = Modifiers(rawValue: 2)
        public static let shift = Modifiers(rawValue: 4)
        public static let superKey = Modifiers(rawValue: 8)
    }

    public var key: String
    public var modifiers: Modifiers

    public init(_ key: String, _ modifiers: Modifiers = []) {
        self.key = key.count == 1 ? key.lowercased() : key
        self.modifiers = modifiers
    }

    /// Parses GTK accelerator text (`<Control><Alt><Shift>x`, `<Primary>q`, `F11`), as
    /// `gtk_accelerator_parse` reads it; nil when a modifier is unknown or the key is missing.
    public init?(accelerator text: String) {
        var rest = Substring(text)
        var modifiers: Modifiers = []
        while rest.hasPrefix("<") {
            guard let close = rest.firstIndex(of: ">") else { return nil }
            let name = rest[rest.index(after: rest.startIndex)..<close].lowercased()
            switch name {
            case "control", "ctrl", "ctl", "primary": modifiers.insert(.control)
            case "alt", "mod1", "meta": modifiers.insert(.alt)
            case "shift", "shft": modifiers.insert(.shift)
            case "super", "mod4", "hyper": modifiers.insert(.superKey)
            case "release", "mod2", "mod3", "mod5": break
            default: return nil
            }
            rest = rest[rest.index(after: close)...]
        }
        guard !rest.isEmpty, !rest.contains("<"), !rest.contains(">") else { return nil }
        self.init(String(rest), modifiers)
    }

    public var description: String {
        var text = ""
        if modifiers.contains(.control) { text += "<Control>" }
        if modifiers.contains(.alt) { text += "<Alt>" }
        if modifiers.contains(.shift) { text += "<Shift>" }
        if modifiers.contains(.superKey) { text += "<Super>" }
        return text + key
    }
}

/// What the kiosk does with a key press, before GTK's accelerators and the page see it.
public enum KeyDecision: Sendable, Equatable {
    /// Not a browser or system shortcut, or one the admin kept: GTK and the page handle it.
    case pass
    /// The admin's exit chord: ask for the PIN.
    case exitChord
    /// A browser or system shortcut that kiosk mode refuses: nobody sees the key.
    case swallow(String)
}

/// The kiosk's keyboard: an allowlist of browser shortcuts (`[Kiosk] shortcuts=`) over a table of
/// the combinations browsers and desktops give meaning to.
///
/// Keys outside the table (typing, Tab, Ctrl+C/V/X/A/Z) always reach the page. A table entry
/// written without Shift matches with or without it (Ctrl+R and Ctrl+Shift+R both reload).
public struct KioskKeyFilter: Sendable, Equatable {
    public let shortcuts: Set<KioskShortcut>
    public let exitChord: KeyChord?

    public init(shortcuts: [KioskShortcut], exitChord: KeyChord? = nil) {
        self.shortcuts = Set(shortcuts)
        self.exitChord = exitChord
    }

    /// The browser shortcuts, by the `[Kiosk] shortcuts=` name that keeps them. Keys are those of
    /// Porthole's own accelerators and of GNOME Web, Firefox and Chrome on Linux.
    static let shortcutKeys: [(KioskShortcut, [String])] = [
        (.back, ["<Alt>Left", "<Alt>KP_Left", "Back"]),
        (.forward, ["<Alt>Right", "<Alt>KP_Right", "Forward"]),
        (.reload, ["F5", "<Control>F5", "<Control>r", "Reload", "Refresh"]),
        (.stop, ["Escape", "Stop"]),
        (.home, ["<Alt>Home", "HomePage"]),
        (.zoom, ["<Control>plus", "<Control>equal", "<Control>minus", "<Control>0", "<Control>KP_Add",
                 "<Control>KP_Subtract", "<Control>KP_0", "ZoomIn", "ZoomOut"]),
        (.find, ["<Control>f", "<Control>g", "F3", "Find"]),
    ]

    /// Keys that stay with the page when their shortcut is not kept (Porthole then installs no
    /// accelerator for them): Escape closes a page's own dialogs.
    static let pageKeys = ["Escape"]

    /// Combinations that lead out of the page or off the screen; refused whatever the allowlist.
    static let refusedKeys: [(String, [String])] = [
        ("quit or close", ["<Control>q", "<Control>w", "<Control>F4", "<Alt>F4", "<Control><Shift>w"]),
        ("new window or tab", ["<Control>n", "<Control>t", "<Control><Shift>n", "<Control><Shift>t", "<Control><Shift>p"]),
        ("full screen", ["F11", "<Super>Up", "<Super>Down"]),
        ("developer tools", ["F12", "<Control><Shift>i", "<Control><Shift>j", "<Control><Shift>c", "<Control><Shift>k",
                             "<Control><Shift>e", "<Control><Shift>m", "<Alt><Super>i"]),
        ("view source", ["<Control>u"]),
        ("print or save", ["<Control>p", "<Control>s", "Print"]),
        ("open a file or address", ["<Control>o", "<Control>l", "<Alt>d", "F6", "<Control>k", "<Control>e"]),
        ("history, bookmarks, downloads", ["<Control>h", "<Control>d", "<Control>b", "<Control>j", "<Control><Shift>Delete",
                                           "<Control><Shift>o", "<Control><Shift>b", "<Control><Shift>y"]),
        ("caret browsing or menus", ["F7", "F10", "<Shift>F10", "Menu", "<Alt>space"]),
        ("window or session", ["<Alt>Tab", "<Alt>F2", "<Alt>F7", "<Alt>F8", "<Control><Alt>Delete", "<Control><Alt>BackSpace",
                               "<Control><Alt>t", "<Super>l", "<Super>d"]),
    ]

    public func decide(_ chord: KeyChord) -> KeyDecision {
        if let exitChord, chord == exitChord { return .exitChord }
        if let name = Self.refusedTable.first(where: { $0.chords.contains { Self.matches(chord, $0) } })?.name {
            return .swallow(name)
        }
        if let shortcut = Self.shortcutTable.first(where: { $0.chords.contains { Self.matches(chord, $0) } })?.shortcut {
            if shortcuts.contains(shortcut) || Self.pageTable.contains(where: { Self.matches(chord, $0) }) { return .pass }
            return .swallow(shortcut.rawValue)
        }
        return .pass
    }

    // The tables parsed once.
    private static let refusedTable = refusedKeys.map { (name: $0.0, chords: $0.1.compactMap { KeyChord(accelerator: $0) }) }
    private static let shortcutTable = shortcutKeys.map { (shortcut: $0.0, chords: $0.1.compactMap { KeyChord(accelerator: $0) }) }
    private static let pageTable = pageKeys.compactMap { KeyChord(accelerator: $0) }

    /// Whether the application accelerator for `action` (`win.reload`) is installed in kiosk mode.
    /// Only the kept browser shortcuts are; quitting and closing never are.
    public func keepsAccelerator(forAction action: String) -> Bool {
        guard let shortcut = Self.shortcut(forAction: action) else { return false }
        return shortcuts.contains(shortcut)
    }

    static func shortcut(forAction action: String) -> KioskShortcut? {
        switch action {
        case "win.back": .back
        case "win.forward": .forward
        case "win.reload": .reload
        case "win.stop": .stop
        case "win.home": .home
        case "win.zoom-in", "win.zoom-out", "win.zoom-reset": .zoom
        case "win.find", "win.find-next", "win.find-previous": .find
        default: nil
        }
    }

    /// `chord` is the table entry `entry`, where an entry without Shift ignores Shift.
    static func matches(_ chord: KeyChord, _ entry: KeyChord) -> Bool {
        guard entry.key == chord.key else { return false }
        if entry.modifiers.contains(.shift) { return entry.modifiers == chord.modifiers }
        return entry.modifiers == chord.modifiers.subtracting(.shift)
    }
}
