// The read-aloud mode: what Porthole says, and when, as a reducer (SpeechEvent → SpeechCommand).

/// `[Accessibility] speech-key=` and `speech-rate=`.
public struct SpeechSettings: Sendable, Equatable {
    /// ChromeOS's ChromeVox toggle, which blind visitors of public terminals may already know.
    public static let defaultKeys = [KeyChord("z", [.control, .alt])]
    public static let rateRange = 0.5...3.0
    /// "Read the page" while speech is on: ChromeVox's Search+R needs a key kiosks lack.
    public static let readKey = KeyChord("r", [.control, .alt])

    /// The keys that turn speech on and off; empty: none (the kiosk bar's button still does).
    public var keys: [KeyChord]
    /// How fast speech goes: 1 is espeak-ng's default pace (175 words a minute).
    public var rate: Double

    public init(keys: [KeyChord] = SpeechSettings.defaultKeys, rate: Double = 1.0) {
        self.keys = keys
        self.rate = rate
    }

    /// espeak-ng's rate in words a minute, within what it accepts (80 to 450).
    public var wordsPerMinute: Int { min(450, max(80, Int((175 * rate).rounded()))) }
}

/// One thing to say.
public struct Utterance: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// Speech turned on or off.
        case mode
        /// A focused or touched element.
        case element
        /// A page finished loading.
        case page
        /// Porthole's own notice, dialog or page.
        case notice
        /// The idle warning and its countdown.
        case idle
        /// An on-screen keyboard key.
        case key
        /// "Read the page": the page's text, which any key or tap stops.
        case reading
    }

    public var kind: Kind
    public var text: String
    /// The language it is spoken in (BCP 47).
    public var language: String
    /// espeak-ng's voice for `language`.
    public var voice: String

    public init(_ kind: Kind, _ text: String, language: String) {
        self.kind = kind
        self.text = text
        self.language = language
        voice = SpeechVoice.name(for: language) ?? "en"
    }

    /// The fields of the `speech` log entry: what was said, in which language, by which voice.
    public var logFields: [(String, String)] {
        [("PORTHOLE_EVENT", "speech"), ("PORTHOLE_SPEECH_KIND", kind.rawValue), ("PORTHOLE_SPEECH_TEXT", text),
         ("PORTHOLE_SPEECH_LANGUAGE", language), ("PORTHOLE_SPEECH_VOICE", voice)]
    }
}

public enum SpeechEvent: Sendable, Equatable {
    /// A key press, before GTK's accelerators and the page see it.
    case key(KeyChord)
    /// The speech key, the kiosk bar's speech button, or the triple tap.
    case toggle
    /// Focus or a touch landed on an element (in the page, or Porthole's own controls).
    case described(ElementDescription)
    /// The kiosk bar's speech button got focus: it says what it does even while speech is off,
    /// so a visitor who tabs around finds it.
    case speechButtonFocused
    /// A page finished loading; `language` is its `lang`.
    case pageLoaded(title: String, language: String?)
    /// The page's title changed (after its load, or while speech is off): kept, not said.
    case titleChanged(String)
    /// Porthole showed something to read: the refusal notice, a dialog's message.
    case announced(String)
    /// The idle warning shows or counts down (`first` when it comes up).
    case idleWarning(secondsLeft: Int, first: Bool)
    /// An on-screen keyboard key was pressed; `name` is its accessible name.
    case keyPressed(String)
    /// "Read the page": the page's main text from the focus on.
    case readPage(text: String, language: String?)
    /// A finger touched the screen at `at` (monotonic seconds): three within `tripleTap`
    /// seconds turn speech on or off, as the key does; any touch stops reading the page.
    case touched(at: Double)
    /// A key press or a tap: stops reading the page.
    case input
    /// A new visitor session started: speech goes off with the visitor.
    case visitorLeft
}

public enum SpeechCommand: Sendable, Equatable {
    /// Say it now, cutting off whatever is being said.
    case say(Utterance)
    /// Stop speaking.
    case stop
    /// Fetch the page's main text from the focus on, for `.readPage`.
    case readFromFocus
    /// The key was speech's (the speech key, or "read the page"): nobody else sees it.
    case swallowKey
}

/// Whether speech is on, the languages it speaks, and what each event says.
///
/// Off, nothing is said, but the page's title and language are kept, so turning speech on says
/// where the visitor is. On, everything the visitor would see is said in the window's language
/// (`interfaceLanguage`), an element or page in its own `lang` when it has one espeak-ng speaks.
public struct SpeechSession: Sendable, Equatable {
    public let interfaceLanguage: String
    /// `[Accessibility] speech-key=`.
    public let keys: [KeyChord]
    public private(set) var isOn = false
    /// Whether "read the page" is going on (any input stops it).
    public private(set) var isReading = false
    public private(set) var pageTitle: String?
    public private(set) var pageLanguage: String?
    /// The last touches' times, newest last (at most three).
    private var touches: [Double] = []

    /// How quickly three taps must follow each other to count as the triple tap: quick enough
    /// that tapping through a page's links does not, slow enough for any finger.
    public static let tripleTap = 1.0

    public init(interfaceLanguage: String, keys: [KeyChord] = SpeechSettings.defaultKeys) {
        self.interfaceLanguage = interfaceLanguage
        self.keys = keys
    }

    public mutating func handle(_ event: SpeechEvent) -> [SpeechCommand] {
        switch event {
        case .key(let chord):
            if keys.contains(chord) { return [.swallowKey] + handle(.toggle) }
            if isOn, chord == SpeechSettings.readKey { return [.swallowKey, .readFromFocus] }
            return handle(.input)
        case .toggle:
            isOn.toggle()
            isReading = false
            guard isOn else { return [.stop, say(.mode, tr("Speech off."))] }
            var text = tr("Speech on. Tab moves, Enter opens.")
            if let pageTitle, !pageTitle.isEmpty { text += " " + pageTitle }
            return [say(.mode, text)]
        case .pageLoaded(let title, let language):
            pageTitle = title
            pageLanguage = language
            guard isOn else { return [] }
            return [say(.page, tr("Page loaded: {title}").filled(["title": title.isEmpty ? tr("untitled") : title]))]
        case .titleChanged(let title):
            pageTitle = title
            return []
        case .visitorLeft:
            let wasOn = isOn
            isOn = false
            isReading = false
            pageTitle = nil
            pageLanguage = nil
            return wasOn ? [.stop] : []
        case .speechButtonFocused:
            return [say(.mode, isOn ? tr("Button, Speech, on. Press to turn speech off.")
                                    : tr("Button, Speech. Press Enter or Space to hear the screen read aloud."))]
        case .touched(let time):
            touches = (touches + [time]).suffix(3).filter { time - $0 <= Self.tripleTap }
            if touches.count == 3 {
                touches = []
                return handle(.toggle)
            }
            return handle(.input)
        case .input:
            guard isReading else { return [] }
            isReading = false
            return [.stop]
        default:
            break
        }
        guard isOn else { return [] }
        isReading = false
        switch event {
        case .described(let element):
            let phrase = element.phrase
            guard !phrase.isEmpty else { return [] }
            return [say(.element, phrase, in: element.language ?? pageLanguage)]
        case .announced(let text):
            return text.isEmpty ? [] : [say(.notice, text)]
        case .idleWarning(let secondsLeft, let first):
            if first { return [say(.idle, IdleSession.warningTitle() + " " + IdleSession.warningText(secondsLeft: secondsLeft))] }
            // Every second would be a stream of numbers: every ten, then the last five.
            guard secondsLeft > 0, secondsLeft <= 5 || secondsLeft % 10 == 0 else { return [] }
            return [say(.idle, String(secondsLeft))]
        case .keyPressed(let name):
            return name.isEmpty ? [] : [say(.key, name)]
        case .readPage(let text, let language):
            guard !text.isEmpty else { return [say(.notice, tr("Nothing to read."))] }
            isReading = true
            return [say(.reading, text, in: language ?? pageLanguage)]
        case .key, .toggle, .pageLoaded, .titleChanged, .visitorLeft, .touched, .input, .speechButtonFocused:
            return []
        }
    }

    /// An utterance in `language` when espeak-ng has a voice for it, else the window's language.
    private func say(_ kind: Utterance.Kind, _ text: String, in language: String? = nil) -> SpeechCommand {
        let chosen = language.flatMap { SpeechVoice.name(for: $0) != nil ? $0 : nil } ?? interfaceLanguage
        return .say(Utterance(kind, text, language: chosen))
    }
}
