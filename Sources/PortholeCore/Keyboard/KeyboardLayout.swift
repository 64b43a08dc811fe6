// The on-screen keyboard's layouts as data: rows of keys for each language, the numeric pads and
// the address (email and URL) layout.

/// A language layout `[Kiosk] keyboard-layouts=` can name.
public enum KeyboardLanguage: String, Sendable, CaseIterable {
    /// English, QWERTY.
    case en
    /// Russian, ЙЦУКЕН.
    case ru
    /// German, QWERTZ.
    case de
    /// French, AZERTY.
    case fr

    /// The name on the layout-switch key (a language code, the same in every language).
    public var code: String { rawValue.uppercased() }

    /// The language's name, for the layout-switch key's tooltip and accessible name.
    public var name: String {
        switch self {
        case .en: tr("English")
        case .ru: tr("Russian")
        case .de: tr("German")
        case .fr: tr("French")
        }
    }

    /// Written in Latin letters, so it can type email and web addresses.
    public var isLatin: Bool { self != .ru }
}

/// What one key does when pressed.
public enum KeyAction: Sendable, Equatable {
    /// Types a letter, digit or sign; letters follow Shift and Caps.
    case character(String)
    /// Types a fixed text (`.com`), unaffected by Shift.
    case text(String)
    case space
    case backspace
    case enter
    case left
    case right
    /// Capitalises the next letter.
    case shift
    /// Capitalises every letter until pressed again.
    case caps
    /// Switches to the next configured language layout.
    case nextLanguage
    /// Hides the keyboard (the field keeps its focus).
    case hide
}

/// One key: what it does and how wide it is, in units of a letter key.
public struct Key: Sendable, Equatable {
    public let action: KeyAction
    public let width: Double

    public init(_ action: KeyAction, width: Double = 1) {
        self.action = action
        self.width = width
    }
}

/// Which of the keyboard's shapes a field gets.
public enum KeyboardKind: Sendable, Equatable {
    /// Letters of the current language, digits, signs.
    case text
    /// Letters of a Latin layout with `@ . / .com`, for `type=email|url` and `inputmode=email|url`.
    case address
    /// A numeric pad; `extras` are the signs beside 0 (`.` for decimals, `+ * #` for phones).
    case numeric(extras: [String])

    static let digits = numeric(extras: [])
    static let decimal = numeric(extras: [".", ","])
    static let number = numeric(extras: ["-", "."])
    static let phone = numeric(extras: ["+", "*", "#"])
}

/// The rows of keys the keyboard shows.
public struct KeyboardLayout: Sendable, Equatable {
    public let rows: [[Key]]

    public init(rows: [[Key]]) { self.rows = rows }

    /// The layout for `kind`, with `language` as the text layout's letters (an address layout
    /// uses `language` when it is Latin, else English). `canSwitch` adds the layout-switch key
    /// to text layouts (more than one language is configured).
    public static func layout(_ kind: KeyboardKind, language: KeyboardLanguage, canSwitch: Bool) -> KeyboardLayout {
        switch kind {
        case .text:
            var bottom = [Key(.character(",")), Key(.space, width: 5), Key(.character(".")),
                          Key(.left), Key(.right), Key(.enter, width: 1.5), Key(.hide, width: 1.5)]
            if canSwitch { bottom.insert(Key(.nextLanguage, width: 1.5), at: 0) }
            return KeyboardLayout(rows: letterRows(language) + [bottom])
        case .address:
            let letters = letterRows(language.isLatin ? language : .en)
            let bottom = [Key(.character("@")), Key(.character(".")), Key(.character("/")), Key(.character("-")),
                          Key(.character("_")), Key(.text(".com"), width: 1.5), Key(.left), Key(.right),
                          Key(.enter, width: 1.5), Key(.hide, width: 1.5)]
            return KeyboardLayout(rows: letters + [bottom])
        case .numeric(let extras):
            let digits: [[Key]] = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]].map { $0.map { Key(.character($0)) } }
            let zero = extras.map { Key(.character($0)) } + [Key(.character("0")), Key(.backspace)]
            let bottom = [Key(.left), Key(.right), Key(.enter), Key(.hide)]
            return KeyboardLayout(rows: digits + [zero, bottom])
        }
    }

    /// The digit row with Backspace, three rows of letters and signs (Caps opens the second,
    /// Shift frames the third), as on the language's hardware keyboard where that fits a
    /// touch screen: AZERTY's accented letters move from the digit row to the third row.
    static func letterRows(_ language: KeyboardLanguage) -> [[Key]] {
        let digits = "1 2 3 4 5 6 7 8 9 0"
        let (first, second, third): (String, String, String)
        switch language {
        case .en: (first, second, third) = ("q w e r t y u i o p", "a s d f g h j k l '", "z x c v b n m - ?")
        case .ru: (first, second, third) = ("й ц у к е н г ш щ з х ъ", "ф ы в а п р о л д ж э", "я ч с м и т ь б ю ё")
        case .de: (first, second, third) = ("q w e r t z u i o p ü", "a s d f g h j k l ö ä", "y x c v b n m ß - ?")
        case .fr: (first, second, third) = ("a z e r t y u i o p", "q s d f g h j k l m", "w x c v b n é è à ç")
        }
        func keys(_ row: String) -> [Key] { row.split(separator: " ").map { Key(.character(String($0))) } }
        return [keys(digits) + [Key(.backspace, width: 1.5)],
                keys(first),
                [Key(.caps, width: 1.5)] + keys(second),
                [Key(.shift, width: 1.5)] + keys(third) + [Key(.shift, width: 1.5)]]
    }
}
