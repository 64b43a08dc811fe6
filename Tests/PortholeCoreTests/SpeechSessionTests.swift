// The read-aloud mode as tables: events in, what is said out; element phrases; voices; the keys.
import Foundation
import PortholeCore
import XCTest

private let link = ElementDescription(role: "link", name: "Opening hours")
private let email = ElementDescription(role: "textbox", name: "Email", value: "")
private let send = ElementDescription(role: "button", name: "Send")

private func say(_ kind: Utterance.Kind, _ text: String, _ language: String = "en") -> SpeechCommand {
    .say(Utterance(kind, text, language: language))
}

private struct Row {
    let name: String
    var language = "en"
    var keys = SpeechSettings.defaultKeys
    let events: [SpeechEvent]
    let then: SpeechEvent
    let expect: [SpeechCommand]
}

private let on: [SpeechEvent] = [.toggle]
/// What turning speech on asks of the page: its `lang`, not asked while speech was off.
private let fetch = SpeechCommand.fetchPageFacts(afterLoad: false)
private let point = TouchPoint(40, 40)
private func down(_ time: Double, finger: Int = 1) -> TouchInput { .down(finger: finger, point, at: time) }
private func up(_ time: Double, finger: Int = 1) -> TouchInput { .up(finger: finger, point, at: time) }
/// A quick tap (down, and up 10 ms later) at each time.
private func taps(_ times: Double...) -> [SpeechEvent] { times.flatMap { [.touch(down($0)), .touch(up($0 + 0.01))] } }

private let rows: [Row] = [
    // Off: nothing is said, whatever happens.
    Row(name: "off, a focused link says nothing", events: [], then: .described(link), expect: []),
    Row(name: "off, a loaded page says nothing", events: [], then: .pageLoaded(title: "Library", language: "en"), expect: []),
    Row(name: "off, a finished load asks the page nothing", events: [], then: .loadFinished(title: "Library"), expect: []),
    Row(name: "off, a key says nothing", events: [], then: .keyPressed("a"), expect: []),
    Row(name: "off, the idle warning says nothing", events: [], then: .idleWarning(secondsLeft: 10, first: true), expect: []),

    // Keys: the speech key and "read the page" are speech's, every other key goes on.
    Row(name: "the speech key is taken and turns speech on", events: [], then: .key(KeyChord("z", [.control, .alt])),
        expect: [.swallowKey, say(.mode, "Speech on. Tab moves, Enter opens."), fetch]),
    Row(name: "a keypad key can be the speech key", keys: [KeyChord("KP_Multiply")], events: [], then: .key(KeyChord("KP_Multiply")),
        expect: [.swallowKey, say(.mode, "Speech on. Tab moves, Enter opens."), fetch]),
    Row(name: "then the default is not", keys: [KeyChord("KP_Multiply")], events: [], then: .key(KeyChord("z", [.control, .alt])), expect: []),
    Row(name: "other keys go on to the page", events: on, then: .key(KeyChord("a")), expect: []),
    Row(name: "on, Ctrl+Alt+R reads the page", events: on, then: .key(KeyChord("r", [.control, .alt])), expect: [.swallowKey, .readFromFocus]),
    Row(name: "off, it is the page's", events: [], then: .key(KeyChord("r", [.control, .alt])), expect: []),
    Row(name: "a key stops reading and goes on", events: on + [.readPage(text: "Welcome.", language: nil)], then: .key(KeyChord("Tab")),
        expect: [.stop]),

    // The speech key.
    Row(name: "the key turns speech on and says how to move", events: [], then: .toggle,
        expect: [say(.mode, "Speech on. Tab moves, Enter opens."), fetch]),
    Row(name: "on, it says the page the visitor is on", events: [.loadFinished(title: "Library")], then: .toggle,
        expect: [say(.mode, "Speech on. Tab moves, Enter opens. Library"), fetch]),
    Row(name: "a title that came after the load counts", events: [.loadFinished(title: ""), .titleChanged("Library")],
        then: .toggle, expect: [say(.mode, "Speech on. Tab moves, Enter opens. Library"), fetch]),
    Row(name: "a new title is not said by itself", events: on, then: .titleChanged("Library"), expect: []),
    Row(name: "pressed again, it stops and says so", events: on, then: .toggle, expect: [.stop, say(.mode, "Speech off.")]),
    Row(name: "in Russian, it says so in Russian's voice", language: "ru", events: [], then: .toggle,
        expect: [say(.mode, "Speech on. Tab moves, Enter opens.", "ru"), fetch]),

    Row(name: "the speech button says what it does while speech is off", events: [], then: .speechButtonFocused,
        expect: [say(.mode, "Button, Speech. Press Enter or Space to hear the screen read aloud. On the screen: touch and hold, or tap three times.")]),
    Row(name: "and how to turn it off while on", events: on, then: .speechButtonFocused,
        expect: [say(.mode, "Button, Speech, on. Press to turn speech off.")]),

    // Touch (TouchGesturesTests has the recognizer's own table): off, taps are the page's and
    // only the triple tap and the long press are speech's; on, a tap says, a double tap activates.
    Row(name: "off, a tap says nothing", events: [.touch(down(10))], then: .touch(up(10.1)), expect: []),
    Row(name: "three quick taps turn speech on, and say how touch works", events: taps(10, 10.3) + [.touch(down(10.6))], then: .touch(up(10.6)),
        expect: [say(.mode, "Speech on. Touch the screen to hear what is there, double tap to open it."), fetch]),
    Row(name: "three slow ones do not", events: taps(10, 10.8) + [.touch(down(11.6))], then: .touch(up(11.6)),
        expect: []),
    Row(name: "a long press turns speech on", events: [.touch(down(10))], then: .touch(.tick(at: 10.8)),
        expect: [say(.mode, "Speech on. Touch the screen to hear what is there, double tap to open it."), fetch]),
    Row(name: "on, a long press says what is there and leaves speech on", events: on + [.touch(down(10))], then: .touch(.tick(at: 10.8)),
        expect: [.describeAt(point)]),
    Row(name: "on, a touch is speech's, not the page's", events: on, then: .touch(down(10)), expect: [.swallowTouch, .wake(at: 10.8)]),
    Row(name: "on, a tap asks what it touched", events: on + [.touch(down(10))], then: .touch(up(10.1)),
        expect: [.swallowTouch, .describeAt(point)]),
    Row(name: "on, a second tap waits for a third", events: on + taps(10) + [.touch(down(10.3))], then: .touch(up(10.35)),
        expect: [.swallowTouch, .wake(at: 10.75)]),
    Row(name: "and then activates what was said", events: on + taps(10, 10.3), then: .touch(.tick(at: 10.75)), expect: [.activate]),
    Row(name: "off, a double tap is the page's own", events: taps(10, 10.3), then: .touch(.tick(at: 10.75)), expect: []),
    Row(name: "three more turn it off", events: on + taps(20, 20.2) + [.touch(down(20.4))], then: .touch(up(20.4)),
        expect: [.swallowTouch, .stop, say(.mode, "Speech off.")]),
    Row(name: "the tap that turned it on goes on to the page to its end", events: taps(10, 10.3) + [.touch(down(10.6)), .touch(up(10.6))],
        then: .touch(.cancel(finger: 1, at: 10.7)), expect: []),
    Row(name: "after it, the next touch is the page's again", events: on + taps(20, 20.2) + [.touch(down(20.4)), .touch(up(20.4)),
        .touch(down(20.5, finger: 2))], then: .touch(up(20.6, finger: 2)), expect: []),
    Row(name: "a finger moving says what it passes", events: on + [.touch(down(10))], then: .touch(.move(finger: 1, TouchPoint(80, 40), at: 10.2)),
        expect: [.swallowTouch, .exploreAt(TouchPoint(80, 40))]),
    Row(name: "a touch stops reading the page", events: on + [.readPage(text: "Welcome.", language: nil)], then: .touch(down(5)),
        expect: [.swallowTouch, .stop, .wake(at: 5.8)]),
    Row(name: "off, touches are the page's", events: [], then: .touch(down(5)), expect: [.wake(at: 5.8)]),

    // Live regions: polite ones wait, assertive ones interrupt.
    Row(name: "off, a live region says nothing", events: [], then: .liveRegion(text: "3 results", assertive: false, language: nil), expect: []),
    Row(name: "a polite live region is queued", events: on, then: .liveRegion(text: "3 results", assertive: false, language: nil),
        expect: [.queue(Utterance(.live, "3 results", language: "en"))]),
    Row(name: "an assertive one cuts in", events: on, then: .liveRegion(text: "Session expired", assertive: true, language: nil),
        expect: [say(.live, "Session expired")]),
    Row(name: "in its own language", events: on, then: .liveRegion(text: "Готово", assertive: false, language: "ru"),
        expect: [.queue(Utterance(.live, "Готово", language: "ru"))]),
    Row(name: "a polite one does not stop the reading", events: on + [.readPage(text: "Welcome.", language: nil),
        .liveRegion(text: "Saved", assertive: false, language: nil)], then: .input, expect: [.stop]),
    Row(name: "an emptied region says nothing", events: on, then: .liveRegion(text: "", assertive: true, language: nil), expect: []),

    // Elements: role, name, state.
    Row(name: "a focused link: role and name", events: on, then: .described(link), expect: [say(.element, "Link, Opening hours")]),
    Row(name: "an empty text field says so", events: on, then: .described(email), expect: [say(.element, "Text field, Email, empty")]),
    Row(name: "a button", events: on, then: .described(send), expect: [say(.element, "Button, Send")]),
    Row(name: "an element in the page's language is said in it", events: on + [.pageLoaded(title: "Bibliothek", language: "de")],
        then: .described(link), expect: [say(.element, "Link, Opening hours", "de")]),
    Row(name: "its own lang wins over the page's", events: on + [.pageLoaded(title: "Bibliothek", language: "de")],
        then: .described(ElementDescription(role: "link", name: "Горячие новости", language: "ru")),
        expect: [say(.element, "Link, Горячие новости", "ru")]),
    Row(name: "a lang espeak-ng has no voice for falls back to the window's", events: on,
        then: .described(ElementDescription(role: "button", name: "OK", language: "zxx")), expect: [say(.element, "Button, OK")]),
    Row(name: "an element with nothing to say says nothing", events: on,
        then: .described(ElementDescription(role: "generic", name: "")), expect: []),

    // Porthole's own events.
    Row(name: "a loaded page says its title", events: on, then: .pageLoaded(title: "Library", language: nil),
        expect: [say(.page, "Page loaded: Library")]),
    Row(name: "an untitled page says so", events: on, then: .pageLoaded(title: "", language: nil),
        expect: [say(.page, "Page loaded: untitled")]),
    Row(name: "on, a finished load asks the page for its title and lang", events: on, then: .loadFinished(title: "Library"),
        expect: [.fetchPageFacts(afterLoad: true)]),
    Row(name: "the answer says the page's own title", events: on + [.loadFinished(title: "")],
        then: .pageLoaded(title: "Library", language: "en"), expect: [say(.page, "Page loaded: Library")]),
    Row(name: "an answer without a title says WebKit's", events: on + [.loadFinished(title: "Library")],
        then: .pageLoaded(title: "", language: nil), expect: [say(.page, "Page loaded: Library")]),
    Row(name: "an answer that comes after speech went off says nothing", events: on + [.loadFinished(title: "Library"), .toggle],
        then: .pageLoaded(title: "Library", language: nil), expect: []),
    Row(name: "the answer when speech came on says nothing", events: on,
        then: .pageFacts(title: "Bibliothek", language: "de"), expect: []),
    Row(name: "but its lang is the page's from then on", events: on + [.pageFacts(title: "Bibliothek", language: "de")],
        then: .described(link), expect: [say(.element, "Link, Opening hours", "de")]),
    Row(name: "and its title is said when speech comes on again", events: on + [.pageFacts(title: "Bibliothek", language: "de"), .toggle],
        then: .toggle, expect: [say(.mode, "Speech on. Tab moves, Enter opens. Bibliothek"), fetch]),
    Row(name: "a new load forgets the last page's lang", events: on + [.pageFacts(title: "Bibliothek", language: "de"),
        .loadFinished(title: "Library")], then: .described(link), expect: [say(.element, "Link, Opening hours")]),
    Row(name: "a notice is read out", events: on, then: .announced("Blocked: evil.example is not on the list"),
        expect: [say(.notice, "Blocked: evil.example is not on the list")]),
    Row(name: "the idle warning says what happens", events: on, then: .idleWarning(secondsLeft: 10, first: true),
        expect: [say(.idle, IdleSession.warningTitle() + " " + IdleSession.warningText(secondsLeft: 10))]),
    Row(name: "the countdown says every tenth second", events: on, then: .idleWarning(secondsLeft: 20, first: false),
        expect: [say(.idle, "20")]),
    Row(name: "but not the others", events: on, then: .idleWarning(secondsLeft: 7, first: false), expect: []),
    Row(name: "and the last five", events: on, then: .idleWarning(secondsLeft: 3, first: false), expect: [say(.idle, "3")]),
    Row(name: "a keyboard key says its name", events: on, then: .keyPressed("Backspace"), expect: [say(.key, "Backspace")]),

    // Read the page: any input stops it; a new visitor turns speech off.
    Row(name: "reading the page says its text", events: on, then: .readPage(text: "Welcome.", language: nil),
        expect: [say(.reading, "Welcome.")]),
    Row(name: "an empty page says there is nothing", events: on, then: .readPage(text: "", language: nil),
        expect: [say(.notice, "Nothing to read.")]),
    Row(name: "a key or tap stops reading", events: on + [.readPage(text: "Welcome.", language: nil)], then: .input, expect: [.stop]),
    Row(name: "input when not reading does nothing", events: on, then: .input, expect: []),
    Row(name: "focus while reading says the element (which cuts reading off)", events: on + [.readPage(text: "Welcome.", language: nil)],
        then: .described(send), expect: [say(.element, "Button, Send")]),
    Row(name: "after that, input has nothing to stop", events: on + [.readPage(text: "Welcome.", language: nil), .described(send)],
        then: .input, expect: []),
    Row(name: "a new visitor session stops speech", events: on, then: .visitorLeft, expect: [.stop]),
    Row(name: "and leaves it off", events: on + [.visitorLeft], then: .described(link), expect: []),
    Row(name: "nor says the last visitor's page", events: [.loadFinished(title: "Private"), .visitorLeft], then: .toggle,
        expect: [say(.mode, "Speech on. Tab moves, Enter opens."), fetch]),
]

final class SpeechSessionTests: XCTestCase {
    func testEachEventSaysWhatItShould() {
        for row in rows {
            var session = SpeechSession(interfaceLanguage: row.language, keys: row.keys)
            for event in row.events { _ = session.handle(event) }
            XCTAssertEqual(session.handle(row.then), row.expect, row.name)
        }
    }

    func testTheScriptsMessagesAreElementsOrLiveRegions() {
        let rows: [(String, SpeechEvent?)] = [
            (#"{"role":"link","name":"Opening hours"}"#, .described(link)),
            (#"{"live":"polite","text":"3 results"}"#, .liveRegion(text: "3 results", assertive: false, language: nil)),
            (#"{"live":"assertive","text":" Session\n expired ","lang":"en-GB"}"#,
             .liveRegion(text: "Session expired", assertive: true, language: "en-GB")),
            (#"{"live":"off","text":"hidden"}"#, nil),
            (#"{"live":"polite"}"#, nil),
            (#"{"live":"polite","text":"x","lang":"not a tag!"}"#, .liveRegion(text: "x", assertive: false, language: nil)),
            (#"[1, 2]"#, nil),
            ("not json", nil),
        ]
        for (message, expected) in rows { XCTAssertEqual(SpeechEvent(scriptMessage: message), expected, message) }
    }

    func testElementPhrases() {
        let rows: [(ElementDescription, String)] = [
            (link, "Link, Opening hours"),
            (email, "Text field, Email, empty"),
            (ElementDescription(role: "textbox", name: "Email", value: "a@b.example"), "Text field, Email, a@b.example"),
            // A password's characters are never said.
            (ElementDescription(role: "textbox", name: "PIN", value: "1234", states: ["password"]), "Password field, PIN, 4 characters"),
            (ElementDescription(role: "checkbox", name: "News", states: ["not-checked"]), "Check box, News, not checked"),
            (ElementDescription(role: "checkbox", name: "News", states: ["checked", "required"]), "Check box, News, checked, required"),
            (ElementDescription(role: "heading", name: "Contact", level: 2), "Heading level 2, Contact"),
            (ElementDescription(role: "img", name: "Map of the library"), "Image, Map of the library"),
            (ElementDescription(role: "button", name: "Menu", states: ["collapsed"]), "Button, Menu, collapsed"),
            (ElementDescription(role: "button", name: "Mute", states: ["pressed"]), "Toggle button, Mute, pressed"),
            (ElementDescription(role: "link", name: "Next", states: ["disabled"]), "Link, Next, unavailable"),
            (ElementDescription(role: "generic", name: "Just text"), "Just text"),
            (ElementDescription(role: "link", name: "  spread \n over\tlines "), "Link, spread over lines"),
            (ElementDescription(role: "slider", name: "Volume", value: "40"), "Slider, Volume, 40"),
        ]
        for (element, phrase) in rows { XCTAssertEqual(element.phrase, phrase) }
        let long = ElementDescription(role: "link", name: String(repeating: "a", count: 1000)).phrase
        XCTAssertEqual(long.count, "Link, ".count + 301, "a long name is cut off")
    }

    func testScriptMessages() {
        let rows: [(String, ElementDescription?)] = [
            (#"{"role":"link","name":"Opening hours","states":[],"lang":"de"}"#,
             ElementDescription(role: "link", name: "Opening hours", language: "de")),
            (#"{"role":"heading","name":"Contact","level":2}"#, ElementDescription(role: "heading", name: "Contact", level: 2)),
            (#"{"role":"textbox","name":"Email","value":"","states":["required"]}"#,
             ElementDescription(role: "textbox", name: "Email", value: "", states: ["required"])),
            // A page can post to the handler too: what is not a description is dropped.
            ("focus;input;text;;1", nil),
            (#"{"name":"no role"}"#, nil),
            (#"["role","link"]"#, nil),
            // Odd fields are ignored, not trusted.
            (#"{"role":"link","name":"x","level":99,"lang":"not a tag!"}"#, ElementDescription(role: "link", name: "x")),
        ]
        for (message, expected) in rows { XCTAssertEqual(ElementDescription(message: message), expected, message) }
    }

    func testVoices() {
        // espeak-ng 1.51's voice names (`espeak-ng --voices`).
        let rows: [(String, String?)] = [
            ("en", "en"), ("en-US", "en-us"), ("en-GB", "en"), ("de", "de"), ("de-AT", "de"), ("fr", "fr"), ("es", "es"),
            ("ru", "ru"), ("zh-TW", "cmn-latn-pinyin"), ("zh-Hant", "cmn-latn-pinyin"), ("zh-CN", "cmn-latn-pinyin"),
            ("zh", "cmn-latn-pinyin"), ("zh-HK", "yue"), ("yue", "yue"), ("pt-BR", "pt-br"), ("und", nil), ("", nil), ("x", nil),
        ]
        for (tag, voice) in rows { XCTAssertEqual(SpeechVoice.name(for: tag), voice, tag) }
    }

    func testRate() {
        XCTAssertEqual(SpeechSettings(rate: 1).wordsPerMinute, 175)
        XCTAssertEqual(SpeechSettings(rate: 2).wordsPerMinute, 350)
        XCTAssertEqual(SpeechSettings(rate: 3).wordsPerMinute, 450, "espeak-ng's fastest")
        XCTAssertEqual(SpeechSettings(rate: 0.5).wordsPerMinute, 88)
    }

    func testConfigKeys() {
        func load(_ text: String) -> ConfigLoadResult {
            let path = NSTemporaryDirectory() + "porthole-speech-\(UUID().uuidString).conf"
            try? ("[Sites]\nA=a.example\n" + text).write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            return ConfigLoader.load(sources: ConfigSources(commandLine: path), validateFilter: { _ in nil })
        }
        XCTAssertEqual(load("").configuration?.speech, SpeechSettings(keys: [KeyChord("z", [.control, .alt])], rate: 1))
        XCTAssertEqual(load("[Accessibility]\nspeech-key=<Control><Alt>s;KP_Multiply\nspeech-rate=1.5\n").configuration?.speech,
                       SpeechSettings(keys: [KeyChord("s", [.control, .alt]), KeyChord("KP_Multiply")], rate: 1.5))
        XCTAssertEqual(load("[Accessibility]\nspeech-key=\n").configuration?.speech.keys, [], "empty: no key")
        for bad in ["speech-key=<Hyperdrive>z", "speech-key=<Control>", "speech-rate=5", "speech-rate=fast"] {
            let result = load("[Accessibility]\n\(bad)\n")
            XCTAssertFalse(result.problems.isEmpty, bad)
        }
    }
}
