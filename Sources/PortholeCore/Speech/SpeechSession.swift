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
        /// A page's live region (`aria-live`, `role=status`, `alert`, `log`) changed.
        case live
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
    /// A page finished loading; `title` is WebKit's (it may not have the page's yet). The page
    /// is asked for its own title and `lang` (`.fetchPageFacts`) only while speech is on: the
    /// answer costs the UI process a JavaScript engine of its own (2.6 MB).
    case loadFinished(title: String)
    /// The page's answer to `.fetchPageFacts(afterLoad: true)`: its title (empty: keep the one
    /// there is) and its `lang`.
    case pageLoaded(title: String, language: String?)
    /// The page's answer to `.fetchPageFacts(afterLoad: false)`, when speech came on: kept.
    case pageFacts(title: String, language: String?)
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
    /// A finger on the web view (GTK's touch events, and the recognizer's timer): see
    /// `TouchGestures`. While speech is on the page does not get them (`.swallowTouch`): one tap
    /// says what it touched and a double tap activates it, as on phone screen readers.
    case touch(TouchInput)
    /// A page's live region changed to `text`: polite ones wait for what is being said,
    /// assertive ones (`aria-live=assertive`, `role=alert`) cut it off.
    case liveRegion(text: String, assertive: Bool, language: String?)
    /// A key press or a tap: stops reading the page.
    case input
    /// A new visitor session started: speech goes off with the visitor.
    case visitorLeft
}

public enum SpeechCommand: Sendable, Equatable {
    /// Say it now, cutting off whatever is being said.
    case say(Utterance)
    /// Say it after whatever is being said.
    case queue(Utterance)
    /// Describe the page's element at this point of the web view (a tap, a long press, a finger
    /// exploring); it comes back as `.described`.
    case describeAt(TouchPoint)
    /// Activate the element described last (a double tap): focus it and click it.
    case activate
    /// Describe the element at this point only if it is not the one described last (a finger
    /// exploring says each element once as it passes).
    case exploreAt(TouchPoint)
    /// Feed `.touch(.tick(at:))` at this time.
    case wake(at: Double)
    /// The touch was speech's: the page does not get it (nor the rest of its finger's touches).
    case swallowTouch
    /// Stop speaking.
    case stop
    /// Ask the page for its title and `lang`; the answer comes back as `.pageLoaded` (`afterLoad`:
    /// after a load) or `.pageFacts` (speech came on).
    case fetchPageFacts(afterLoad: Bool)
    /// Fetch the page's main text from the focus on, for `.readPage`.
    case readFromFocus
    /// The key was speech's (the speech key, or "read the page"): nobody else sees it.
    case swallowKey
}

/// Whether speech is on, the languages it speaks, and what each event says.
///
/// Off, nothing is said, but the page's title is kept, so turning speech on says where the
/// visitor is (and asks the page for its language). On, everything the visitor would see is said in the window's language
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
    private var gestures = TouchGestures()
    /// The fingers that touched down while speech was on: their touches are speech's to the end,
    /// so the page never sees half a touch (a down without its up).
    private var capturedFingers: Set<Int> = []

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
            return toggle(byTouch: false)
        case .loadFinished(let title):
            pageTitle = title
            pageLanguage = nil
            return isOn ? [.fetchPageFacts(afterLoad: true)] : []
        case .pageLoaded(let title, let language):
            if !title.isEmpty { pageTitle = title }
            pageLanguage = language
            guard isOn else { return [] }
            let said = pageTitle ?? ""
            return [say(.page, tr("Page loaded: {title}").filled(["title": said.isEmpty ? tr("untitled") : said]))]
        case .pageFacts(let title, let language):
            if !title.isEmpty { pageTitle = title }
            pageLanguage = language
            return []
        case .titleChanged(let title):
            pageTitle = title
            return []
        case .visitorLeft:
            let wasOn = isOn
            gestures = TouchGestures()
            isOn = false
            isReading = false
            pageTitle = nil
            pageLanguage = nil
            return wasOn ? [.stop] : []
        case .speechButtonFocused:
            return [say(.mode, isOn ? tr("Button, Speech, on. Press to turn speech off.")
                                    : tr("Button, Speech. Press Enter or Space to hear the screen read aloud.") + " "
                                      + tr("On the screen: touch and hold, or tap three times."))]
        case .touch(let input):
            var commands: [SpeechCommand] = []
            switch input {
            case .down(let finger, _, _):
                if isOn { capturedFingers.insert(finger) }
                if capturedFingers.contains(finger) { commands.append(.swallowTouch) }
            case .move(let finger, _, _):
                if capturedFingers.contains(finger) { commands.append(.swallowTouch) }
            case .up(let finger, _, _), .cancel(let finger, _):
                if capturedFingers.remove(finger) != nil { commands.append(.swallowTouch) }
            case .tick: break
            }
            for gesture in gestures.handle(input) {
                switch gesture {
                case .touched: commands += handle(.input)
                case .wake(let time): commands.append(.wake(at: time))
                case .tripleTap: commands += toggle(byTouch: true)
                // Long press starts speech; once on, it is one more way to hear what is there
                // (a resting finger does not turn speech off by accident).
                case .longPress(let point): commands += isOn ? [.describeAt(point)] : toggle(byTouch: true)
                case .tap(let point): if isOn { commands.append(.describeAt(point)) }
                case .explore(let point): if isOn { commands.append(.exploreAt(point)) }
                case .doubleTap: if isOn { commands.append(.activate) }
                }
            }
            return commands
        case .liveRegion(let text, let assertive, let language) where !assertive:
            // Polite: after what is being said, which it does not stop (not even the reading).
            guard isOn, !text.isEmpty else { return [] }
            guard case .say(let utterance) = say(.live, text, in: language ?? pageLanguage) else { return [] }
            return [.queue(utterance)]
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
        case .liveRegion(let text, _, let language):
            return text.isEmpty ? [] : [say(.live, text, in: language ?? pageLanguage)]
        case .readPage(let text, let language):
            guard !text.isEmpty else { return [say(.notice, tr("Nothing to read."))] }
            isReading = true
            return [say(.reading, text, in: language ?? pageLanguage)]
        case .key, .toggle, .loadFinished, .pageLoaded, .pageFacts, .titleChanged, .visitorLeft, .touch, .input, .speechButtonFocused:
            return []
        }
    }

    /// Speech on or off: the key, the button and the gestures. Started by touch, it says how
    /// touch works; started by a key, how keys do.
    private mutating func toggle(byTouch: Bool) -> [SpeechCommand] {
        isOn.toggle()
        isReading = false
        guard isOn else { return [.stop, say(.mode, tr("Speech off."))] }
        var text = byTouch ? tr("Speech on. Touch the screen to hear what is there, double tap to open it.")
                           : tr("Speech on. Tab moves, Enter opens.")
        if let pageTitle, !pageTitle.isEmpty { text += " " + pageTitle }
        // The page's `lang`, for what it says without one of its own (a frame's), was not asked
        // while speech was off.
        return [say(.mode, text), .fetchPageFacts(afterLoad: false)]
    }

    /// An utterance in `language` when espeak-ng has a voice for it, else the window's language.
    private func say(_ kind: Utterance.Kind, _ text: String, in language: String? = nil) -> SpeechCommand {
        let chosen = language.flatMap { SpeechVoice.name(for: $0) != nil ? $0 : nil } ?? interfaceLanguage
        return .say(Utterance(kind, text, language: chosen))
    }
}
