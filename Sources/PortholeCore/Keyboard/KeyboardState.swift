// The on-screen keyboard's decisions: which fields get it and in which shape, Shift and Caps,
// what a key press types, whether it is offered at all, and what each key shows.

/// `[Kiosk] keyboard=`.
public enum KeyboardMode: String, Sendable, CaseIterable {
    /// Offered while a touchscreen is connected.
    case auto
    /// Always offered.
    case on = "true"
    /// Never offered.
    case off = "false"
}

/// A kind of input device, as the toolkit reports it.
public enum InputDeviceKind: Sendable, Equatable {
    case touchscreen, mouse, touchpad, pen, keyboard, other
}

/// `[Kiosk] keyboard`, `keyboard-layouts`, `keyboard-height`.
public struct KeyboardSettings: Sendable, Equatable {
    /// `keyboard=`; nil when not set: `auto` in kiosk mode, off at a desk.
    public var mode: KeyboardMode?
    /// `keyboard-layouts=`: the languages the layout key cycles through, the first one first.
    public var languages: [KeyboardLanguage]
    /// `keyboard-height=`: the keyboard's height as a fraction of the screen's.
    public var height: Double

    public init(mode: KeyboardMode? = nil, languages: [KeyboardLanguage] = [.en], height: Double = 0.35) {
        self.mode = mode
        self.languages = languages
        self.height = height
    }

    public static let heightRange = 0.15...0.6

    /// The mode in effect: as set, else `auto` in kiosk mode and off at a desk, where a
    /// keyboard is usually at hand and a touchscreen laptop's owner did not ask for one.
    public func mode(kiosk: Bool) -> KeyboardMode { mode ?? (kiosk ? .auto : .off) }

    /// Whether the keyboard comes up for fields, given the connected input devices.
    public static func isOffered(_ mode: KeyboardMode, devices: [InputDeviceKind]) -> Bool {
        switch mode {
        case .on: true
        case .off: false
        case .auto: devices.contains(.touchscreen)
        }
    }
}

/// What the page's focus script reports: an element got focus, or focus left the editable one.
///
/// The script sends `blur`, or `focus;TAG;TYPE;INPUTMODE;EDITABLE` with the element's lowercased
/// tag name, `type` and `inputmode` attributes (letters and `-` only) and `1` when it accepts text
/// (not read-only or disabled; for other elements, contenteditable).
public struct FieldFocus: Sendable, Equatable {
    public var tag: String
    public var type: String
    public var inputMode: String
    public var acceptsText: Bool

    public init(tag: String, type: String = "", inputMode: String = "", acceptsText: Bool = true) {
        self.tag = tag
        self.type = type
        self.inputMode = inputMode
        self.acceptsText = acceptsText
    }

    /// The focused field in `message`, nil for `blur` or a message the script cannot have sent.
    public init?(message: String) {
        let parts = message.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[0] == "focus" else { return nil }
        self.init(tag: parts[1], type: parts[2], inputMode: parts[3], acceptsText: parts[4] == "1")
    }

    /// The keyboard's shape for this field, or nil when it takes no typing (buttons, check
    /// boxes, read-only fields) or asks for no keyboard (`inputmode=none`: the page has its own).
    /// `inputmode` wins over `type`, as it does for the software keyboards of phones (HTML
    /// Living Standard, "Input modalities: the inputmode attribute").
    public var keyboardKind: KeyboardKind? {
        guard acceptsText else { return nil }
        switch inputMode {
        case "none": return nil
        case "numeric": return .digits
        case "decimal": return .decimal
        case "tel": return .phone
        case "email", "url": return .address
        case "text", "search": return .text
        default: break
        }
        switch tag {
        case "textarea": return .text
        case "input":
            switch type {
            case "", "text", "search", "password": return .text
            case "email", "url": return .address
            case "tel": return .phone
            case "number": return .number
            default: return nil  // button, checkbox, date, color, range, file, submit …
            }
        default: return .text  // contenteditable
        }
    }
}

/// A key press's effect on the page: text typed, or an editing key.
public enum KeyOutput: Sendable, Equatable {
    case type(String)
    case backspace, enter, left, right
}

/// What a key shows, and what assistive technology and tooltips call it.
public struct KeyFace: Sendable, Equatable {
    public let label: String
    public let accessibleName: String
    /// A key that is on (Shift for the next letter, Caps Lock): drawn lit, said as pressed.
    public var isOn = false
    /// A label that may shorten with an ellipsis where the screen is narrow (the space bar's
    /// language name); every other label is one or two characters and always fits.
    public var mayShorten = false
}

/// The keyboard's state for one visitor: shown or not and in which shape, the language, Shift
/// and Caps. Nothing typed is kept: no history, no suggestions.
public struct KeyboardState: Sendable, Equatable {
    public enum Shift: Sendable, Equatable { case off, once, locked }

    public let languages: [KeyboardLanguage]
    public private(set) var languageIndex = 0
    public private(set) var shift = Shift.off
    /// The shape shown, nil while hidden.
    public private(set) var kind: KeyboardKind?

    public init(languages: [KeyboardLanguage]) {
        self.languages = languages.isEmpty ? [.en] : languages
    }

    public var language: KeyboardLanguage { languages[languageIndex] }
    public var isVisible: Bool { kind != nil }

    /// The rows to show, nil while hidden.
    public var layout: KeyboardLayout? {
        kind.map { KeyboardLayout.layout($0, language: language, canSwitch: languages.count > 1) }
    }

    /// A field got focus (nil: focus left the editable field).
    public mutating func focus(_ field: FieldFocus?) {
        kind = field?.keyboardKind
        if shift == .once { shift = .off }
    }

    public mutating func hide() { kind = nil }

    /// A new visitor session: hidden, first language, no Shift or Caps.
    public mutating func reset() { self = KeyboardState(languages: languages) }

    /// Presses a key: what reaches the page, if anything, and the new state.
    public mutating func press(_ action: KeyAction) -> KeyOutput? {
        switch action {
        case .character(let character):
            let typed = shift == .off ? character : Self.capital(character)
            if shift == .once { shift = .off }
            return .type(typed)
        case .text(let text): return .type(text)
        case .space: return .type(" ")
        case .backspace: return .backspace
        case .enter: return .enter
        case .left: return .left
        case .right: return .right
        case .shift:
            shift = shift == .off ? .once : .off
        case .caps:
            shift = shift == .locked ? .off : .locked
        case .nextLanguage:
            languageIndex = (languageIndex + 1) % languages.count
        case .hide:
            kind = nil
        }
        return nil
    }

    /// The upper-case letter, or the character itself where upper case is not one letter (ß).
    static func capital(_ character: String) -> String {
        let upper = character.uppercased()
        return upper.count == 1 && upper.unicodeScalars.count == character.unicodeScalars.count ? upper : character
    }

    /// What the key for `action` shows now (letters follow Shift and Caps).
    public func face(_ action: KeyAction) -> KeyFace {
        switch action {
        case .character(let character):
            let shown = shift == .off ? character : Self.capital(character)
            return KeyFace(label: shown, accessibleName: shown)
        case .text(let text): return KeyFace(label: text, accessibleName: text)
        case .space:
            // The layout typed with now, where every visitor looks: on the widest key.
            return KeyFace(label: language.name, accessibleName: tr("Space"), mayShorten: true)
        case .backspace: return KeyFace(label: "⌫", accessibleName: tr("Backspace"))
        // Symbols, not words: "Eingabe" or "Ausblenden" at key size make a row wider than a 1280-px screen.
        case .enter: return KeyFace(label: "⏎", accessibleName: tr("Enter"))
        case .left: return KeyFace(label: "←", accessibleName: tr("Move left"))
        case .right: return KeyFace(label: "→", accessibleName: tr("Move right"))
        case .shift: return KeyFace(label: "⇧", accessibleName: tr("Shift"), isOn: shift == .once)
        case .caps:
            return KeyFace(label: "⇪", accessibleName: shift == .locked ? tr("Caps Lock is on") : tr("Caps Lock"), isOn: shift == .locked)
        case .hide: return KeyFace(label: "⌨↓", accessibleName: tr("Hide the keyboard"))
        case .nextLanguage:
            // The current layout's code (as on the space bar); pressing it moves to the next.
            let next = languages[(languageIndex + 1) % languages.count]
            return KeyFace(label: language.code, accessibleName: tr("Switch to {language}").replacing("{language}", with: next.name))
        }
    }
}
