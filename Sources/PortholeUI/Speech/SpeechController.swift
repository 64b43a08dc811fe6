// The read-aloud mode for one window: GTK's and the page's events in as SpeechEvents, the
// session's commands out to espeak-ng, each utterance in the log.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Made by every window and owned by it. An adapter: the speech key, focus moving between
/// Porthole's own controls (their ATK role and name), the page's speech script, loads, notices,
/// the kiosk's warnings and the keyboard's keys become `SpeechEvent`s for its `SpeechSession`;
/// the session's commands become calls on `SpeechEngine`.
@MainActor
public final class SpeechController {
    public let settings: SpeechSettings
    private let output: SpeechOutput
    private var session: SpeechSession
    private let connections = SignalConnections()
    /// The current web view's touch handler, replaced with the view.
    private let viewConnections = SignalConnections()
    private let clock: any Clock
    private var watcher: SpeechWatcher?
    /// Numbers the utterances in the log, so their audio entries can be matched to them.
    private var utteranceNumber = 0
    /// The gesture recognizer's wake-up (a long press, a double tap), as `.wake` asked.
    private var touchTimer: (any ClockTimer)?
    /// The kiosk bar's speech button, which announces itself on focus.
    var button: UnsafeMutablePointer<GtkWidget>?
    /// Speech turned on or off (the key, the button, a triple tap, the visitor leaving): kiosk
    /// mode lengthens the idle timeout while it is on.
    var onModeChanged: (@MainActor (Bool) -> Void)?

    public var isOn: Bool { session.isOn }

    init(window: UnsafeMutablePointer<GtkWidget>, settings: SpeechSettings, output: SpeechOutput, clock: any Clock) {
        self.settings = settings
        self.clock = clock
        self.output = output
        session = SpeechSession(interfaceLanguage: Localization.activeLanguage(), keys: settings.keys)
        // The window's own voice, loaded on the engine thread before anyone asks for speech.
        SpeechEngine.shared.preload(voices: [Utterance(.mode, "", language: session.interfaceLanguage).voice])
        let object = UnsafeMutableRawPointer(window)
        // After kiosk mode's handler (connected first), which lets this chord through: the
        // speech key is taken here, before GtkWindow's accelerators and the page.
        connections.connect(object, "key-press-event", .pointerReturningBool { [unowned self] event in
            guard let event else { return false }
            guard let chord = KioskController.chord(event.assumingMemoryBound(to: GdkEvent.self).pointee.key) else { return false }
            return self.handle(.key(chord)).contains(.swallowKey)
        })
        // `void (*)(GtkWindow *window, GtkWidget *widget, gpointer data)`: focus moved to
        // another of the window's widgets (nil: to none).
        connections.connect(object, "set-focus", .pointer { [unowned self] widget in
            guard let widget else { return }
            self.focused(widget.assumingMemoryBound(to: GtkWidget.self))
        })
    }

    // MARK: Events in

    /// Follows `view`'s page: the window's first web view, and each visitor session's.
    func attach(to view: UnsafeMutablePointer<WebKitWebView>) {
        watcher?.detach()
        watcher = SpeechWatcher(view: view) { [weak self] event in self?.handle(event) }
        viewConnections.disconnectAll()
        // `gboolean (*)(GtkWidget *widget, GdkEvent *event, gpointer data)`: every touch goes to
        // the session's gesture recognizer; while speech is on it is speech's (true: WebKit's own
        // handler, which runs after this one, never sees it), else it goes on to the page.
        viewConnections.connect(UnsafeMutableRawPointer(view), "touch-event", .pointerReturningBool { [unowned self] event in
            guard let event, let input = Self.touchInput(event.assumingMemoryBound(to: GdkEvent.self), at: self.clock.now) else { return false }
            return self.handle(.touch(input)).contains(.swallowTouch)
        })
    }

    /// A GDK touch event as the recognizer's input: its sequence is the finger.
    private static func touchInput(_ event: UnsafeMutablePointer<GdkEvent>, at time: Double) -> TouchInput? {
        let touch = event.pointee.touch
        let finger = Int(bitPattern: UnsafeRawPointer(touch.sequence))
        let point = TouchPoint(touch.x, touch.y)
        switch event.pointee.type {
        case GDK_TOUCH_BEGIN: return .down(finger: finger, point, at: time)
        case GDK_TOUCH_UPDATE: return .move(finger: finger, point, at: time)
        case GDK_TOUCH_END: return .up(finger: finger, point, at: time)
        case GDK_TOUCH_CANCEL: return .cancel(finger: finger, at: time)
        default: return nil
        }
    }

    /// The speech key's other ways in: the kiosk bar's button, the triple tap.
    public func toggle() { handle(.toggle) }

    /// A load finished: its title and language come from the page (WebKit's title may follow
    /// the load's end); `fallback` when the page cannot answer (no script world yet).
    func pageLoaded(fallback: String) { handle(.loadFinished(title: fallback)) }
    func titleChanged(_ title: String) { handle(.titleChanged(title)) }
    func announce(_ text: String) { handle(.announced(text)) }
    func keyPressed(_ name: String) { handle(.keyPressed(name)) }
    func startNewSession() { handle(.visitorLeft) }
    func handle(kiosk event: SpeechEvent) { handle(event) }

    private func focused(_ widget: UnsafeMutablePointer<GtkWidget>) {
        // The page's own focus is the speech script's to describe.
        if Self.isA(widget, webkit_web_view_get_type()) { return }
        if widget == button {
            handle(.speechButtonFocused)
        } else if let element = Self.describe(widget) {
            handle(.described(element))
        }
    }

    // MARK: Commands out

    @discardableResult
    private func handle(_ event: SpeechEvent) -> [SpeechCommand] {
        let wasOn = session.isOn
        let commands = session.handle(event)
        for command in commands {
            switch command {
            case .stop:
                SpeechEngine.shared.stop()
                Log.write(.debug, "speech stopped", fields: ["PORTHOLE_EVENT": "speech-stop"])
            case .say(let utterance): say(utterance)
            case .queue(let utterance): say(utterance, queued: true)
            case .describeAt(let point): watcher?.describe(at: point, explore: false)
            case .exploreAt(let point): watcher?.describe(at: point, explore: true)
            case .activate:
                Log.write(.debug, "speech activates the element said last", fields: ["PORTHOLE_EVENT": "speech-activate"])
                watcher?.activate()
            case .wake(let time):
                // One timer is enough: each touch makes the earlier wake-ups moot.
                touchTimer?.cancel()
                touchTimer = clock.after(seconds: max(0, time - clock.now)) { [weak self] in
                    guard let self else { return }
                    self.handle(.touch(.tick(at: self.clock.now)))
                }
            case .readFromFocus:
                watcher?.readFromFocus { [weak self] text, language in self?.handle(.readPage(text: text, language: language)) }
            case .fetchPageFacts(let afterLoad):
                guard let watcher else {
                    // No page to ask: what WebKit said of it is all there is.
                    handle(afterLoad ? .pageLoaded(title: "", language: nil) : .pageFacts(title: "", language: nil))
                    break
                }
                watcher.titleAndLanguage { [weak self] title, language in
                    self?.handle(afterLoad ? .pageLoaded(title: title, language: language) : .pageFacts(title: title, language: language))
                }
            case .swallowKey, .swallowTouch: break
            }
        }
        if wasOn != session.isOn {
            Log.info(session.isOn ? "speech on" : "speech off",
                     fields: ["PORTHOLE_EVENT": "speech-mode", "PORTHOLE_SPEECH": session.isOn ? "on" : "off"])
            onModeChanged?(session.isOn)
        }
        return commands
    }

    /// Speaks and logs it. The text is logged at debug level: what a visitor hears (a field's
    /// value, a typed letter) is said aloud, but it does not belong in a kiosk's journal, where
    /// debug is written only when `G_MESSAGES_DEBUG` asks for it.
    /// The entry is written as the utterance goes to the engine thread, in the order they are
    /// asked for; the files output's WAV follows in a `speech-audio` entry with the same
    /// `PORTHOLE_SPEECH_ID` once the engine has written it.
    private func say(_ utterance: Utterance, queued: Bool = false) {
        utteranceNumber += 1
        let id = String(utteranceNumber)
        Log.write(.debug, "said: \(utterance.text)", fieldList: utterance.logFields + [("PORTHOLE_SPEECH_ID", id)])
        SpeechEngine.shared.say(utterance, wordsPerMinute: settings.wordsPerMinute, output: output, queued: queued, done: { audio in
            guard let audio else { return }
            Log.write(.debug, "speech audio \(audio.file)", fieldList: [
                ("PORTHOLE_EVENT", "speech-audio"), ("PORTHOLE_SPEECH_ID", id),
                ("PORTHOLE_SPEECH_AUDIO", audio.file), ("PORTHOLE_SPEECH_SAMPLES", String(audio.samples)),
            ])
        })
    }

    // MARK: Porthole's own controls

    /// A widget as its accessible describes it (GTK's ATK implementation, whether or not an
    /// accessibility bus runs): its role, name and states.
    static func describe(_ widget: UnsafeMutablePointer<GtkWidget>) -> ElementDescription? {
        guard let accessible = gtk_widget_get_accessible(widget) else { return nil }
        var name = atk_object_get_name(accessible).map { String(cString: $0) } ?? ""
        if name.isEmpty, let text = gtk_widget_get_tooltip_text(widget) {
            name = String(cString: text)
            g_free(text)
        }
        var states: [String] = []
        var role: String
        var value: String?
        switch atk_object_get_role(accessible) {
        case ATK_ROLE_PUSH_BUTTON: role = "button"
        case ATK_ROLE_TOGGLE_BUTTON: role = "button"
        case ATK_ROLE_CHECK_BOX: role = "checkbox"
        case ATK_ROLE_RADIO_BUTTON, ATK_ROLE_RADIO_MENU_ITEM: role = "radio"
        case ATK_ROLE_MENU_ITEM, ATK_ROLE_CHECK_MENU_ITEM: role = "menuitem"
        case ATK_ROLE_LINK: role = "link"
        case ATK_ROLE_ENTRY, ATK_ROLE_TEXT:
            role = "textbox"
            value = isA(widget, gtk_entry_get_type())
                ? gtk_entry_get_text(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkEntry.self)).map { String(cString: $0) } : nil
        case ATK_ROLE_PASSWORD_TEXT:
            role = "textbox"
            states.append("password")
            value = String(repeating: "*", count: Int(gtk_entry_get_text_length(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkEntry.self))))
        default: role = "generic"
        }
        if let set = atk_object_ref_state_set(accessible) {
            let checkable = role == "checkbox" || role == "radio"
            // A menu's radio item (GtkModelButton) keeps its state in its `active` property only.
            let checked = atk_state_set_contains_state(set, ATK_STATE_CHECKED) != 0 || isActive(widget)
            if checkable { states.append(checked ? "checked" : "not-checked") }
            if atk_state_set_contains_state(set, ATK_STATE_EXPANDABLE) != 0 {
                states.append(atk_state_set_contains_state(set, ATK_STATE_EXPANDED) != 0 ? "expanded" : "collapsed")
            }
            if !checkable, atk_object_get_role(accessible) == ATK_ROLE_TOGGLE_BUTTON, atk_state_set_contains_state(set, ATK_STATE_PRESSED) != 0 {
                states.append("expanded")
            }
            if atk_state_set_contains_state(set, ATK_STATE_SENSITIVE) == 0 { states.append("disabled") }
            g_object_unref(UnsafeMutableRawPointer(set))
        }
        guard !name.isEmpty || value != nil else { return nil }
        return ElementDescription(role: role, name: name, value: value, states: states)
    }

    /// The widget's boolean `active` property, where it has one (GtkModelButton, GtkToggleButton).
    private static func isActive(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        let object = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self)
        let boolean = GType(5 << 2)  // G_TYPE_BOOLEAN, a macro Swift cannot see
        let instance = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)
        guard let typeClass = instance.pointee.g_class,
              let spec = g_object_class_find_property(UnsafeMutableRawPointer(typeClass).assumingMemoryBound(to: GObjectClass.self), "active"),
              spec.pointee.value_type == boolean else { return false }
        var value = GValue()
        g_value_init(&value, boolean)
        defer { g_value_unset(&value) }
        g_object_get_property(object, "active", &value)
        return g_value_get_boolean(&value) != 0
    }

    private static func isA(_ widget: UnsafeMutablePointer<GtkWidget>, _ type: GType) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }

    // MARK: Teardown

    func teardown() {
        touchTimer?.cancel()
        touchTimer = nil
        watcher?.detach()
        watcher = nil
        viewConnections.disconnectAll()
        connections.disconnectAll()
        SpeechEngine.shared.stop()
    }
}

extension ExitPinDialog {
    /// What the PIN dialog says as it opens: its title and its prompt.
    static var spokenPrompt: String { tr("Leave kiosk mode") + ". " + tr("Enter the PIN to leave kiosk mode.") }
}

extension BrowserWindow {
    /// Speech for this window, its kiosk and its keyboard (called once, after they exist).
    func attachSpeech() {
        guard let window else { return }
        let speech = SpeechController(window: window, settings: options.speech, output: options.speechOutput, clock: options.clock)
        self.speech = speech
        speech.button = speechButton
        if let webView { speech.attach(to: webView) }
        kioskMode?.onSpeech = { [weak speech] event in speech?.handle(kiosk: event) }
        speech.onModeChanged = { [weak self] on in self?.kioskMode?.speechChanged(on: on) }
        keyboard?.onKeyPressed = { [weak speech] name in speech?.keyPressed(name) }
    }

    /// What speech hears of a page notice: a finished load says the page's title.
    func tellSpeech(_ event: PageNotice) {
        guard let speech else { return }
        switch event {
        case .loadFinished: speech.pageLoaded(fallback: coordinator.title ?? state.title ?? "")
        case .title(let title): speech.titleChanged(title ?? "")
        case .visitorSessionStarted: speech.startNewSession()
        default: break
        }
    }
}
