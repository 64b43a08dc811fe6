// A blind visit: speech started with the key, Tab through the kiosk bar's Sites menu to a site,
// a form field filled with the on-screen keyboard, submitted; each step heard in the speech log.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

/// The visit's words in one language: the sites, the page's link, field, button and titles.
private struct Words {
    var lang: String
    /// The voice espeak-ng speaks `lang` with.
    var voice: String
    var welcome = "Welcome to the library."
    var library = "Library", contact = "Contact", hours = "Opening hours", email = "Email", send = "Send", thanks = "Thank you"
    /// A letter of the language's script, which the window's own phrases are written in.
    var script: ClosedRange<Unicode.Scalar>

    static let english = Words(lang: "en", voice: "en", script: "A"..."z")
    static let russian = Words(lang: "ru", voice: "ru", library: "Библиотека", contact: "Контакты", hours: "Часы работы",
                               email: "Почта", send: "Отправить", thanks: "Спасибо", script: "А"..."я")
    static let traditionalChinese = Words(lang: "zh-TW", voice: "cmn-latn-pinyin", library: "圖書館", contact: "聯絡我們",
                                          hours: "開放時間", email: "電子郵件", send: "傳送", thanks: "謝謝", script: "\u{4E00}"..."\u{9FFF}")

    var libraryPage: String {
        """
        <!DOCTYPE html><html lang="\(lang)"><head><title>\(library)</title></head><body>
        <p>\(welcome)</p><a href="/hours">\(hours)</a></body></html>
        """
    }

    var contactPage: String {
        """
        <!DOCTYPE html><html lang="\(lang)"><head><title>\(contact)</title></head><body>
        <form action="/sent" method="get"><label for="mail">\(email)</label> <input id="mail" name="mail">
        <button type="submit">\(send)</button></form></body></html>
        """
    }
}

/// What the speech log says, utterance by utterance (kind, text, voice, audio file).
private struct Spoken: Equatable {
    var kind: String
    var text: String
    var voice: String
    /// The log's number for it, which its audio entry repeats.
    var id: String?

    static func all() -> [Spoken] {
        LogCapture.current.filter { $0["PORTHOLE_EVENT"] == "speech" }.map {
            Spoken(kind: $0["PORTHOLE_SPEECH_KIND"] ?? "", text: $0["PORTHOLE_SPEECH_TEXT"] ?? "",
                   voice: $0["PORTHOLE_SPEECH_VOICE"] ?? "", id: $0["PORTHOLE_SPEECH_ID"])
        }
    }

    /// The WAV the engine thread wrote for this utterance (its `speech-audio` entry), waited for.
    @MainActor
    var audio: String? {
        var file: String?
        _ = UI.wait(10) {
            file = LogCapture.current.first { $0["PORTHOLE_EVENT"] == "speech-audio" && $0["PORTHOLE_SPEECH_ID"] == id }?["PORTHOLE_SPEECH_AUDIO"]
            return file != nil
        }
        return file
    }
}

@MainActor
private final class Visit {
    let server = TestServer()
    let window: BrowserWindow
    let audio = NSTemporaryDirectory() + "porthole-speech-\(getpid())-\(UInt32.random(in: 0 ... .max))"
    private var heard = 0

    init(_ words: Words = .english, clock: (any Clock)? = nil, _ edit: (inout Configuration) -> Void = { _ in }) {
        let pages = (library: words.libraryPage, contact: words.contactPage,
                     thanks: "<!DOCTYPE html><html lang=\"\(words.lang)\"><title>\(words.thanks)</title><p>…</p></html>")
        server.route = { request in
            switch request.path {
            case "/contact": .html(pages.contact)
            case "/sent": .html(pages.thanks)
            default: .html(pages.library)
            }
        }
        let configuration = TestApp.kioskConfiguration(sites: [
            Site(name: words.library, address: server.url("/")), Site(name: words.contact, address: server.url("/contact")),
        ]) {
            $0.kiosk.keyboard.mode = .on
            edit(&$0)
        }
        TestApp.engine.sites = configuration.sites
        TestApp.engine.webProcessPolicy = WebProcessPolicy(configuration: configuration)
        var options = BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration))
        options.speechOutput = .files(directory: audio)
        if let clock { options.clock = clock }
        BrowserWindow.installAccelerators(on: TestApp.application, kiosk: options.kiosk)
        window = BrowserWindow(application: TestApp.application, engine: TestApp.engine, options: options)
        window.show()
        LogCapture.start()
    }

    func end() {
        _ = LogCapture.stop()
        TestApp.destroy(window)
        server.stop()
        try? FileManager.default.removeItem(atPath: audio)
    }

    /// Waits for the next utterance after those already heard that satisfies `match`.
    @discardableResult
    func hear(_ what: String, _ match: (Spoken) -> Bool, file: StaticString = #filePath, line: UInt = #line) -> Spoken? {
        var found: Spoken?
        let ok = UI.wait(10) {
            let spoken = Spoken.all()
            if let index = spoken.indices.dropFirst(heard).first(where: { match(spoken[$0]) }) {
                found = spoken[index]
                heard = index + 1
                return true
            }
            return false
        }
        if !ok { XCTFail("never heard \(what); heard: \(Spoken.all().dropFirst(heard).map(\.text))", file: file, line: line) }
        return found
    }

    @discardableResult
    func hear(_ text: String, kind: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> Spoken? {
        hear("\"\(text)\"", { $0.text == text && (kind == nil || $0.kind == kind) }, file: file, line: line)
    }

    /// Waits until speech has the loaded page's title and language: the window asks the page
    /// for them when the load finishes, and a script run after that is answered after it.
    func settle() {
        UI.evaluate("1", in: window)
    }

    func press(_ keyval: Int32, _ modifiers: GdkModifierType = GdkModifierType(rawValue: 0)) {
        UI.press(UInt32(keyval), modifiers: modifiers, in: window)
    }

    /// Presses Tab until `text` is said (at most `limit` times).
    @discardableResult
    func tab(to text: String, limit: Int = 12, file: StaticString = #filePath, line: UInt = #line) -> Spoken? {
        for _ in 0..<limit {
            press(GDK_KEY_Tab)
            let before = heard
            var found: Spoken?
            _ = UI.wait(3) {
                let spoken = Spoken.all()
                guard spoken.count > before else { return false }
                if let index = spoken.indices.dropFirst(before).first(where: { spoken[$0].text == text }) {
                    found = spoken[index]
                    heard = index + 1
                }
                return true
            }
            if let found { return found }
            heard = Spoken.all().count
        }
        XCTFail("Tab never reached \"\(text)\"; heard: \(Spoken.all().map(\.text))", file: file, line: line)
        return nil
    }

    /// Speech off: presses Tab until `text` is said (at most `limit` times). Nothing else is said
    /// to wait for, so each press is waited for by the focus it moves: in the window (at once) or
    /// in the page (its active element); what focus in the window says is said as it moves.
    @discardableResult
    func tabWithSpeechOff(to text: String, limit: Int = 12, file: StaticString = #filePath, line: UInt = #line) -> Spoken? {
        let toplevel = UnsafeMutableRawPointer(window.window!).assumingMemoryBound(to: GtkWindow.self)
        let activeElement = {
            UI.evaluate("(function (e) { return e ? e.tagName + ' ' + e.textContent : '' })(document.activeElement)", in: self.window) ?? ""
        }
        for _ in 0..<limit {
            let before = Spoken.all().count
            let focus = gtk_window_get_focus(toplevel)
            let active = activeElement()
            press(GDK_KEY_Tab)
            XCTAssertTrue(UI.wait(5) { gtk_window_get_focus(toplevel) != focus || activeElement() != active }, "Tab moves the focus",
                          file: file, line: line)
            let spoken = Spoken.all()
            if let found = spoken.dropFirst(before).first(where: { $0.text == text }) {
                heard = spoken.count
                return found
            }
        }
        XCTFail("Tab never reached \"\(text)\"; heard: \(Spoken.all().map(\.text))", file: file, line: line)
        return nil
    }
}

final class SpeechVisitTests: XCTestCase {
    func testABlindVisitIsHeardStepByStep() throws {
        try MainActor.assumeIsolated { try blindVisit(.english, checkAudio: true) }
    }

    func testTheSameVisitInRussianSpeaksRussian() throws {
        try speaking(["ru"]) { try MainActor.assumeIsolated { try blindVisit(.russian, checkAudio: false) } }
    }

    func testTheSameVisitInTraditionalChineseSpeaksMandarin() throws {
        try speaking(["zh-TW"]) { try MainActor.assumeIsolated { try blindVisit(.traditionalChinese, checkAudio: true) } }
    }
}

/// The visit, in the window's language (`speaking`) on pages in `words.lang`: every step's
/// utterance, its voice, and (with `checkAudio`) that the first one's audio is speech.
@MainActor
private func blindVisit(_ words: Words, checkAudio: Bool) throws {
    let visit = Visit(words)
    defer { visit.end() }
    let window = visit.window
    let voice = words.voice
    window.goHome()
    XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
    XCTAssertTrue(UI.wait { window.headerTitle == words.library })
    visit.settle()
    XCTAssertEqual(Spoken.all(), [], "nothing is said before speech is asked for")

    visit.press(GDK_KEY_z, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue))
    let on = visit.hear(tr("Speech on. Tab moves, Enter opens.") + " " + words.library, kind: "mode")
    XCTAssertEqual(on?.voice, voice, "the window's language")
    XCTAssertTrue(on?.text.unicodeScalars.contains { words.script.contains($0) } ?? false, "in the window's language: \(on?.text ?? "")")
    XCTAssertTrue(window.speech?.isOn == true)

    // Through the page (its link, in the page's lang), then out of it into the kiosk bar.
    let link = visit.tab(to: tr("Link") + ", " + words.hours)
    XCTAssertEqual(link?.voice, voice, "the page's lang")
    _ = visit.tab(to: tr("Button") + ", " + tr("Sites"))

    // Open the Sites menu; arrow to the contact page and open it.
    visit.press(GDK_KEY_space)
    visit.hear("the Sites menu's first site, the one shown") { $0.text == [tr("Radio button"), words.library, tr("checked")].joined(separator: ", ") }
    visit.press(GDK_KEY_Down)
    visit.hear(words.contact) { $0.text == [tr("Radio button"), words.contact, tr("not checked")].joined(separator: ", ") }
    visit.press(GDK_KEY_Return)
    visit.hear(tr("Page loaded: {title}").filled(["title": words.contact]), kind: "page")

    // Into the form: the field, the keyboard's keys, the button, sent.
    let field = visit.tab(to: [tr("Text field"), words.email, tr("empty")].joined(separator: ", "))
    XCTAssertEqual(field?.voice, voice)
    let keyboard = try XCTUnwrap(window.keyboard)
    XCTAssertTrue(UI.wait(5) { keyboard.isFullyShown }, "the keyboard comes up for the field")
    for letter in ["a", "b"] {
        tap(keyboard.button(for: .character(letter)))
        visit.hear(letter, kind: "key")
    }
    XCTAssertTrue(UI.wait { UI.evaluate("document.getElementById('mail').value", in: window) == "ab" }, "typed")
    _ = visit.tab(to: tr("Button") + ", " + words.send)
    visit.press(GDK_KEY_Return)
    let sent = visit.hear(tr("Page loaded: {title}").filled(["title": words.thanks]), kind: "page")
    XCTAssertEqual(sent?.voice, voice)
    XCTAssertEqual(visit.server.count(path: "/sent"), 1, "the form was sent")

    guard checkAudio else { return }
    // The audio is real: the file of the first utterance is speech, not silence.
    let file = try XCTUnwrap(on?.audio, "the files output names each utterance's WAV")
    let stat = try soxStat(file)
    XCTAssertGreaterThan(stat["RMS     amplitude"] ?? 0, 0.01, "speech, not silence: \(stat)")
    XCTAssertGreaterThan(stat["Length (seconds)"] ?? 0, 1, "a sentence takes more than a second")
}

extension SpeechVisitTests {
    /// The keyboard's focus watcher and speech's element watcher share the view's user content
    /// manager: a new visitor session's views must get both scripts back (the keyboard's detach
    /// once removed every script, speech's too), so the page is still described after a reset.
    func testThePageIsStillDescribedAfterAVisitorSession() {
        MainActor.assumeIsolated {
            let visit = Visit()
            defer { visit.end() }
            let window = visit.window
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            window.startNewSession()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")), "the next visitor's home page")
            visit.press(GDK_KEY_z, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue))
            visit.hear("speech on") { $0.kind == "mode" }
            XCTAssertNotNil(visit.tab(to: tr("Link") + ", " + Words.english.hours), "the page's link is described after the reset")
        }
    }

    /// The same after an idle reset that uncovers the page prepared for the next visitor: loaded
    /// while the leaving visitor's watchers were registered, it reaches the ones made at the swap.
    func testThePreparedPageIsDescribedAfterTheIdleReset() {
        MainActor.assumeIsolated {
            let clock = ManualClock()
            let visit = Visit(clock: clock) {
                $0.kiosk.idleTimeout = 20
                $0.kiosk.idleWarning = 10
                $0.browser.unresponsiveTimeout = 0  // the clock jumps; no page can answer meanwhile
            }
            defer { visit.end() }
            let window = visit.window
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            UI.move(in: window)
            clock.advance(by: 10)
            XCTAssertTrue(UI.wait { window.kiosk?.isNextVisitorReady == true }, "the next visitor's page is prepared")
            let prepared = window.preparedWebView
            clock.advance(by: 20)
            XCTAssertEqual(window.webView, prepared, "and uncovered at the reset")
            visit.press(GDK_KEY_z, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue))
            visit.hear("speech on") { $0.kind == "mode" }
            XCTAssertNotNil(visit.tab(to: tr("Link") + ", " + Words.english.hours), "the page's link is described after the reset")
        }
    }

    func testThePinDialogAndAWrongPinAreSpoken() throws {
        try MainActor.assumeIsolated {
            let visit = Visit {
                $0.kiosk.exitChord = "<Control><Alt><Shift>x"
                $0.kiosk.exitPinHash = ExitPinHash(salt: [7, 7, 7], pin: "2468")
            }
            defer { visit.end() }
            let window = visit.window
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            XCTAssertTrue(UI.wait { window.headerTitle == "Library" })
            visit.press(GDK_KEY_z, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue))
            visit.hear("Speech on. Tab moves, Enter opens. Library", kind: "mode")
            visit.press(GDK_KEY_X, GdkModifierType(GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue | GDK_SHIFT_MASK.rawValue))
            let entry = try XCTUnwrap(window.kiosk?.exitDialogEntry, "the chord opens the PIN dialog")
            visit.hear("Leave kiosk mode. Enter the PIN to leave kiosk mode.", kind: "notice")
            gtk_entry_set_text(entry.cast(), "1111")
            gtk_widget_activate(entry)
            visit.hear("the wrong PIN") { $0.kind == "notice" && $0.text.hasPrefix("Wrong PIN.") }
            XCTAssertFalse(Spoken.all().contains { $0.text.contains("1111") }, "the PIN itself is never said")
        }
    }

    func testTheRefusalNoticeTheBlockedPageAndTheIdleWarningAreSpoken() {
        MainActor.assumeIsolated {
            let clock = ManualClock()
            let visit = Visit(clock: clock) {
                $0.kiosk.idleTimeout = 60
                $0.kiosk.idleWarning = 10
            }
            defer { visit.end() }
            let window = visit.window
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            XCTAssertTrue(UI.wait { window.headerTitle == "Library" })
            visit.press(GDK_KEY_z, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue))
            visit.hear("Speech on. Tab moves, Enter opens. Library", kind: "mode")

            // A link the list refuses: the notice is read out.
            UI.evaluate("var a = document.createElement('a'); a.href = 'http://evil.example/x'; document.body.appendChild(a); a.click(); 'ok'", in: window)
            XCTAssertTrue(UI.wait { window.refusalNoticeText != nil }, "the notice appears")
            visit.hear(window.refusalNoticeText ?? "the notice", kind: "notice")

            window.load(url: "https://blocked.example/")
            XCTAssertTrue(UI.wait { window.state.title != "Library" && !window.state.isLoading })
            let blocked = visit.hear("the Blocked page") { $0.kind == "page" }
            XCTAssertTrue(UI.wait { !(window.coordinator.title ?? "").isEmpty })
            XCTAssertEqual(blocked?.text, tr("Page loaded: {title}").filled(["title": window.coordinator.title ?? "?"]))
            XCTAssertNotEqual(blocked?.text, tr("Page loaded: {title}").filled(["title": tr("untitled")]))

            // Speech is on, so the idle timeout is idle-factor-with-speech times longer.
            let factor = AccessibilitySettings().idleFactorWithSpeech
            clock.advance(by: 60 * factor - 1)
            XCTAssertFalse(window.kiosk?.isIdleWarningVisible ?? true, "no warning after 60 s while speech is on")
            clock.advance(by: 1)
            XCTAssertTrue(window.kiosk?.isIdleWarningVisible ?? false)
            visit.hear(IdleSession.warningTitle() + " " + IdleSession.warningText(secondsLeft: 10), kind: "idle")
            for _ in 0..<5 { clock.advance(by: 1) }
            visit.hear("5", kind: "idle")
            XCTAssertEqual(Spoken.all().filter { $0.kind == "idle" }.map(\.text).dropFirst(), ["5"],
                           "the seconds between are not said")
        }
    }

    func testThreeQuickTapsTurnSpeechOnAndSlowOnesDoNot() {
        MainActor.assumeIsolated {
            let clock = ManualClock()
            let visit = Visit(clock: clock)
            defer { visit.end() }
            let window = visit.window
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            XCTAssertTrue(UI.wait { window.headerTitle == "Library" })
            for _ in 0..<3 {
                UI.touch(window)
                clock.advance(by: 0.8)
            }
            XCTAssertFalse(window.speech?.isOn ?? true, "taps 0.8 s apart are not a triple tap")
            for _ in 0..<3 {
                UI.touch(window)
                clock.advance(by: 0.2)
            }
            XCTAssertTrue(window.speech?.isOn ?? false, "three taps within a second are")
            visit.hear("Speech on. Touch the screen to hear what is there, double tap to open it. Library", kind: "mode")
        }
    }

    func testReadThePageReadsFromTheFocusAndAKeyStopsIt() {
        MainActor.assumeIsolated {
            let visit = Visit()
            defer { visit.end() }
            let window = visit.window
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            XCTAssertTrue(UI.wait { window.headerTitle == "Library" })
            visit.settle()
            let ctrlAlt = GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue)
            visit.press(GDK_KEY_r, ctrlAlt)
            visit.press(GDK_KEY_z, ctrlAlt)
            visit.hear("Speech on. Tab moves, Enter opens. Library", kind: "mode")
            XCTAssertEqual(Spoken.all().map(\.kind), ["mode"], "off, the read key reads nothing")
            visit.press(GDK_KEY_r, ctrlAlt)
            visit.hear("Welcome to the library. Opening hours", kind: "reading")
            XCTAssertFalse(LogCapture.current.contains { $0["PORTHOLE_EVENT"] == "speech-stop" })
            visit.press(GDK_KEY_Shift_L)
            XCTAssertTrue(UI.wait { LogCapture.current.contains { $0["PORTHOLE_EVENT"] == "speech-stop" } }, "any key stops reading")
            _ = visit.tab(to: "Link, Opening hours")
            visit.press(GDK_KEY_r, ctrlAlt)
            visit.hear("reading from the focus") { $0.kind == "reading" && $0.text == "Opening hours" }
        }
    }

    func testTheKioskBarsSpeechButtonSaysWhatItDoesAndTurnsSpeechOn() {
        MainActor.assumeIsolated {
            let visit = Visit()
            defer { visit.end() }
            let window = visit.window
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            XCTAssertFalse(window.speech?.isOn ?? true)
            // Speech is off, and Tab through the bar says nothing until the speech button.
            _ = visit.tabWithSpeechOff(to: "Button, Speech. Press Enter or Space to hear the screen read aloud. On the screen: touch and hold, or tap three times.")
            XCTAssertFalse(window.speech?.isOn ?? true, "focus alone does not turn it on")
            XCTAssertEqual(Spoken.all().map(\.kind), ["mode"], "nothing else was said on the way")
            visit.press(GDK_KEY_space)
            visit.hear("Speech on. Tab moves, Enter opens. Library", kind: "mode")
            XCTAssertTrue(window.speech?.isOn ?? false)
            visit.press(GDK_KEY_space)
            visit.hear("Speech off.", kind: "mode")
            XCTAssertFalse(window.speech?.isOn ?? true)
        }
    }
}


/// A press and release on an on-screen keyboard key, as a finger's tap reaches GTK.
@MainActor
private func tap(_ button: UnsafeMutablePointer<GtkWidget>?) {
    guard let button, let window = gtk_button_get_event_window(button.cast()) else { return XCTFail("no key to tap") }
    let pointer = gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_window_get_display(window)))
    var allocation = GtkAllocation()
    gtk_widget_get_allocation(button, &allocation)
    for type in [GDK_BUTTON_PRESS, GDK_BUTTON_RELEASE] {
        let event = gdk_event_new(type)!
        event.pointee.button.window = window
        g_object_ref(UnsafeMutableRawPointer(window))
        event.pointee.button.send_event = 1
        event.pointee.button.time = guint32(GDK_CURRENT_TIME)
        event.pointee.button.button = 1
        event.pointee.button.x = Double(allocation.width) / 2
        event.pointee.button.y = Double(allocation.height) / 2
        gdk_event_set_device(event, pointer)
        gtk_main_do_event(event)
        gdk_event_free(event)
    }
}

/// `sox FILE -n stat`'s figures ("RMS     amplitude" → 0.09), as sox prints them on stderr.
private func soxStat(_ file: String) throws -> [String: Double] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
    process.arguments = [file, "-n", "stat"]
    let pipe = Pipe()
    process.standardError = pipe
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var figures: [String: Double] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
        let parts = line.split(separator: ":", maxSplits: 1)
        if parts.count == 2, let value = Double(parts[1].trimmingCharacters(in: .whitespaces)) {
            figures[parts[0].trimmingCharacters(in: .whitespaces)] = value
        }
    }
    return figures
}

/// Touch as on phone screen readers, and the page's live regions.
extension SpeechVisitTests {
    /// A button and a field at known places of the page (CSS pixels at zoom 1 are the web view's).
    private static let touchPage = """
        <!DOCTYPE html><html lang="en"><head><title>Touch</title><style>body { margin: 0 }
        #send { position: absolute; left: 0; top: 0; width: 200px; height: 100px }
        #mail { position: absolute; left: 0; top: 150px; width: 200px; height: 60px }</style></head><body>
        <button id="send" onclick="this.dataset.presses = (+(this.dataset.presses || 0) + 1)">Send</button>
        <label>Email <input id="mail"></label></body></html>
        """

    func testWithSpeechOnATapSaysWhatItTouchedAndADoubleTapActivatesIt() throws {
        try MainActor.assumeIsolated {
            let clock = ManualClock()
            let visit = Visit(clock: clock)
            defer { visit.end() }
            let window = visit.window
            visit.server.route = { _ in .html(Self.touchPage) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            XCTAssertTrue(UI.wait { window.headerTitle == "Touch" })

            // Speech off: a tap is the page's, and presses the button (so the taps below reach
            // the page unless speech keeps them).
            UI.touch(window, x: 40, y: 40)
            XCTAssertTrue(UI.wait { buttonPresses(window) == "1" }, "off, a tap presses the button")
            clock.advance(by: 5)

            visit.press(GDK_KEY_z, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue))
            visit.hear("Speech on. Tab moves, Enter opens. Touch", kind: "mode")
            // One tap: said, not pressed.
            UI.touch(window, x: 40, y: 40)
            visit.hear("Button, Send", kind: "element")
            clock.advance(by: 1)
            // Another element by touch: said; then a double tap anywhere activates it.
            UI.touch(window, x: 60, y: 180)
            visit.hear("Text field, Email, empty", kind: "element")
            clock.advance(by: 1)
            UI.touch(window, x: 40, y: 40)
            visit.hear("Button, Send", kind: "element")
            clock.advance(by: 0.2)
            UI.touch(window, x: 300, y: 300)
            XCTAssertFalse(LogCapture.current.contains { $0["PORTHOLE_EVENT"] == "speech-activate" }, "the double tap waits for a third tap")
            clock.advance(by: 0.5)
            XCTAssertTrue(LogCapture.current.contains { $0["PORTHOLE_EVENT"] == "speech-activate" })
            XCTAssertTrue(UI.wait { buttonPresses(window) == "2" }, "the double tap pressed the button said last")
            clock.advance(by: 1)

            // The field: a tap says it, a double tap focuses it, and the keyboard comes up.
            UI.touch(window, x: 60, y: 180)
            visit.hear("Text field, Email, empty", kind: "element")
            clock.advance(by: 0.2)
            UI.touch(window, x: 60, y: 180)
            clock.advance(by: 0.5)
            XCTAssertTrue(UI.wait { UI.evaluate("document.activeElement.id", in: window) == "mail" }, "the double tap focused the field")
            let keyboard = try XCTUnwrap(window.keyboard)
            XCTAssertTrue(UI.wait(5) { keyboard.isFullyShown }, "the keyboard comes up for the field")
            // Its keys type with one tap while speech is on (they are Porthole's, not the page's).
            tap(keyboard.button(for: .character("a")))
            visit.hear("a", kind: "key")
            XCTAssertTrue(UI.wait { UI.evaluate("document.getElementById('mail').value", in: window) == "a" }, "typed")
            XCTAssertEqual(buttonPresses(window), "2", "none of the single taps pressed the button")
        }
    }

    func testATapInASameOriginFrameSaysItsElementAndADoubleTapActivatesIt() {
        MainActor.assumeIsolated {
            let clock = ManualClock()
            let visit = Visit(clock: clock)
            defer { visit.end() }
            let window = visit.window
            visit.server.route = { request in
                switch request.path {
                case "/inner":
                    .html("""
                        <!DOCTYPE html><html lang="de"><body style="margin: 0">
                        <button id="inner" style="position: absolute; left: 0; top: 0; width: 200px; height: 100px"
                          onclick="this.dataset.presses = (+(this.dataset.presses || 0) + 1)">Senden</button></body></html>
                        """)
                default:
                    .html("""
                        <!DOCTYPE html><html lang="en"><head><title>Frames</title></head><body style="margin: 0">
                        <iframe src="/inner" style="position: absolute; left: 20px; top: 300px; width: 300px; height: 150px; border: 0"></iframe>
                        </body></html>
                        """)
                }
            }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            XCTAssertTrue(UI.wait { UI.evaluate("frames[0].document.readyState", in: window) == "complete" })
            visit.settle()
            visit.press(GDK_KEY_z, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue))
            visit.hear("Speech on. Tab moves, Enter opens. Frames", kind: "mode")
            UI.touch(window, x: 60, y: 340)
            let said = visit.hear("Button, Senden", kind: "element")
            XCTAssertEqual(said?.voice, "de", "in the frame's language")
            clock.advance(by: 0.2)
            UI.touch(window, x: 600, y: 600)
            clock.advance(by: 0.5)
            XCTAssertTrue(UI.wait { UI.evaluate("frames[0].document.getElementById('inner').dataset.presses || '0'", in: window) == "1" },
                          "the double tap pressed the frame's button")
        }
    }

    func testAFingerMovingOverThePageSaysEachElementItPassesOnce() {
        MainActor.assumeIsolated {
            let clock = ManualClock()
            let visit = Visit(clock: clock)
            defer { visit.end() }
            let window = visit.window
            visit.server.route = { _ in .html(Self.touchPage) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            XCTAssertTrue(UI.wait { window.headerTitle == "Touch" })
            visit.settle()
            visit.press(GDK_KEY_z, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue))
            visit.hear("Speech on. Tab moves, Enter opens. Touch", kind: "mode")
            UI.touch(window, x: 40, y: 40, phases: [GDK_TOUCH_BEGIN])
            UI.touch(window, x: 60, y: 180, phases: [GDK_TOUCH_UPDATE])
            visit.hear("Text field, Email, empty", kind: "element")
            UI.touch(window, x: 70, y: 185, phases: [GDK_TOUCH_UPDATE])
            UI.touch(window, x: 40, y: 40, phases: [GDK_TOUCH_UPDATE])
            visit.hear("Button, Send", kind: "element")
            UI.touch(window, x: 40, y: 40, phases: [GDK_TOUCH_END])
            clock.advance(by: 1)
            XCTAssertEqual(Spoken.all().filter { $0.kind == "element" }.map(\.text), ["Text field, Email, empty", "Button, Send"],
                           "each element once, as the finger passes")
            XCTAssertEqual(buttonPresses(window), "0", "exploring activates nothing")
            XCTAssertFalse(LogCapture.current.contains { $0["PORTHOLE_EVENT"] == "speech-activate" })
        }
    }

    func testALongPressTurnsSpeechOn() {
        MainActor.assumeIsolated {
            let clock = ManualClock()
            let visit = Visit(clock: clock)
            defer { visit.end() }
            let window = visit.window
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            XCTAssertTrue(UI.wait { window.headerTitle == "Library" })
            UI.touch(window, phases: [GDK_TOUCH_BEGIN])
            clock.advance(by: 0.7)
            XCTAssertFalse(window.speech?.isOn ?? true, "0.7 s is not a long press")
            clock.advance(by: 0.2)
            XCTAssertTrue(window.speech?.isOn ?? false, "0.8 s held still is")
            UI.touch(window, phases: [GDK_TOUCH_END])
            visit.hear("Speech on. Touch the screen to hear what is there, double tap to open it. Library", kind: "mode")
            // Once on, a long press says what is under the finger and leaves speech on.
            clock.advance(by: 2)
            UI.touch(window, x: 20, y: 32, phases: [GDK_TOUCH_BEGIN])
            clock.advance(by: 0.9)
            UI.touch(window, x: 20, y: 32, phases: [GDK_TOUCH_END])
            visit.hear("the text under the finger") { $0.kind == "element" && $0.text == "Welcome to the library." }
            XCTAssertTrue(window.speech?.isOn ?? false)
        }
    }

    func testLiveRegionsAreSpokenWhenTheyChangeInEveryFrame() {
        MainActor.assumeIsolated {
            let visit = Visit()
            defer { visit.end() }
            let window = visit.window
            visit.server.route = { request in
                switch request.path {
                case "/frame":
                    .html("<!DOCTYPE html><html lang=\"de\"><body><div role=\"log\" id=\"log\"><p>Früher</p></div></body></html>")
                default:
                    .html("""
                        <!DOCTYPE html><html lang="en"><head><title>Live</title></head><body>
                        <div role="status" id="status">Loaded</div><div aria-live="assertive" id="urgent"></div>
                        <div aria-live="off" id="quiet"></div><iframe src="/frame"></iframe></body></html>
                        """)
                }
            }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            XCTAssertTrue(UI.wait { UI.evaluate("frames[0].document.readyState", in: window) == "complete" })
            visit.press(GDK_KEY_z, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue))
            visit.hear("Speech on. Tab moves, Enter opens. Live", kind: "mode")

            UI.evaluate("document.getElementById('quiet').textContent = 'Not this'; document.getElementById('status').textContent = '3 results'", in: window)
            let polite = visit.hear("3 results", kind: "live")
            XCTAssertEqual(polite?.voice, "en")
            UI.evaluate("document.getElementById('urgent').textContent = 'Session expired'", in: window)
            visit.hear("Session expired", kind: "live")
            // A log in a frame says what was added, in the frame's language.
            UI.evaluate("frames[0].document.getElementById('log').insertAdjacentHTML('beforeend', '<p>Gespeichert</p>')", in: window)
            let log = visit.hear("Gespeichert", kind: "live")
            XCTAssertEqual(log?.voice, "de")
            // An alert put into the page is said as it comes.
            UI.evaluate("document.body.insertAdjacentHTML('beforeend', '<p role=\"alert\">Card declined</p>')", in: window)
            visit.hear("Card declined", kind: "live")
            XCTAssertEqual(Spoken.all().filter { $0.kind == "live" }.map(\.text), ["3 results", "Session expired", "Gespeichert", "Card declined"],
                           "the first content and aria-live=off are not said")
        }
    }
}

/// How many times the touch page's Send button was pressed (its click handler counts).
@MainActor
private func buttonPresses(_ window: BrowserWindow) -> String? {
    UI.evaluate("document.getElementById('send').dataset.presses || '0'", in: window)
}
