// What the speech mode says about one element: its role, name and state, as the page's
// accessibility semantics (ARIA, labels, alt text) or a GTK widget's accessible give them.

/// One focused or touched element, described by the speech script in the page (`message`) or
/// by the window from a widget's accessible.
public struct ElementDescription: Sendable, Equatable {
    /// An ARIA role name (`link`, `button`, `textbox`, `heading`, ...); unknown roles say no role word.
    public var role: String
    /// The accessible name (aria-labelledby, aria-label, the label, alt, title, the text).
    public var name: String
    /// A text field's value, a slider's value text; nil when there is none to say.
    public var value: String?
    /// ARIA states and properties that hold: `checked`, `not-checked`, `mixed`, `expanded`,
    /// `collapsed`, `pressed`, `selected`, `disabled`, `required`, `invalid`, `read-only`, `password`.
    public var states: [String]
    /// A heading's level (1 to 6); nil otherwise.
    public var level: Int?
    /// The element's language (its nearest `lang`), as a BCP 47 tag; nil when the page has none.
    public var language: String?

    public init(role: String, name: String, value: String? = nil, states: [String] = [], level: Int? = nil, language: String? = nil) {
        self.role = role
        self.name = name
        self.value = value
        self.states = states
        self.level = level
        self.language = language
    }

    /// The longest name or value read out: a link around a whole article is not read to the end.
    static let longest = 300

    /// The speech script's message: a JSON object `{"role":…, "name":…, "value":…, "states":[…],
    /// "level":…, "lang":…}`. Nil when it is not one (a page can post to the handler too).
    public init?(message: String) {
        guard let node = try? JSONReader.parse(Array(message.utf8)), case .object(let members) = node.value else { return nil }
        var role: String?
        var name = ""
        var value: String?
        var states: [String] = []
        var level: Int?
        var language: String?
        for member in members {
            switch (member.name, member.value.value) {
            case ("role", .string(let text)): role = text
            case ("name", .string(let text)): name = text
            case ("value", .string(let text)): value = text
            case ("states", .array(let items)):
                states = items.compactMap { if case .string(let text) = $0.value { text } else { nil } }
            case ("level", .number(let number)) where (1...6).contains(number): level = Int(number)
            case ("lang", .string(let text)) where Localization.languageTagProblem(text) == nil: language = text
            default: continue
            }
        }
        guard let role else { return nil }
        self.init(role: role, name: name, value: value, states: states, level: level, language: language)
    }

    /// What is said: role, name, then value or state, with commas between (a screen reader's
    /// order: "Link, Opening hours", "Text field, Email, empty", "Check box, News, not checked").
    public var phrase: String {
        var parts: [String] = []
        if let word = roleWord { parts.append(word) }
        let name = Self.clip(self.name)
        if !name.isEmpty { parts.append(name) }
        if isTextField {
            if states.contains("password") {
                // A password's characters are never said aloud; how many there are is.
                let count = value?.count ?? 0
                parts.append(count == 0 ? tr("empty") : tr("{count} characters").filled(["count": String(count)]))
            } else if let value, !value.isEmpty {
                parts.append(Self.clip(value))
            } else {
                parts.append(tr("empty"))
            }
        } else if let value, !value.isEmpty, value != self.name {
            parts.append(Self.clip(value))
        }
        parts.append(contentsOf: states.compactMap(Self.stateWord))
        return parts.joined(separator: ", ")
    }

    var isTextField: Bool { ["textbox", "searchbox", "textarea"].contains(role) }

    /// The role as a visitor hears it, in the window's language.
    var roleWord: String? {
        switch role {
        case "link": tr("Link")
        case "button": states.contains("pressed") || states.contains("not-pressed") ? tr("Toggle button") : tr("Button")
        case "textbox", "textarea": states.contains("password") ? tr("Password field") : tr("Text field")
        case "searchbox": tr("Search field")
        case "checkbox": tr("Check box")
        case "switch": tr("Switch")
        case "radio": tr("Radio button")
        case "combobox", "listbox": tr("List box")
        case "option": tr("Option")
        case "menuitem": tr("Menu item")
        case "menu": tr("Menu")
        case "tab": tr("Tab")
        case "slider": tr("Slider")
        case "spinbutton": tr("Number field")
        case "heading": level.map { tr("Heading level {level}").filled(["level": String($0)]) } ?? tr("Heading")
        case "img": tr("Image")
        case "dialog", "alertdialog": tr("Dialog")
        case "alert": tr("Alert")
        case "key": tr("Key")
        default: nil
        }
    }

    static func stateWord(_ state: String) -> String? {
        switch state {
        case "checked": tr("checked")
        case "not-checked": tr("not checked")
        case "mixed": tr("partly checked")
        case "expanded": tr("expanded")
        case "collapsed": tr("collapsed")
        case "pressed": tr("pressed")
        case "not-pressed": tr("not pressed")
        case "selected": tr("selected")
        case "disabled": tr("unavailable")
        case "required": tr("required")
        case "invalid": tr("invalid entry")
        case "read-only": tr("read only")
        default: nil
        }
    }

    private static func clip(_ text: String) -> String {
        let collapsed = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return collapsed.count <= longest ? collapsed : String(collapsed.prefix(longest)) + "…"
    }
}
