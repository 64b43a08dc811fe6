// A blind visit: speech started with the key, Tab through the kiosk bar's Sites menu to a site,
// a form field filled with the on-screen keyboard, submitted; each step heard in the speech log.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private let library = """
    <!DOCTYPE html><html lang="en"><head><title>Library</title></head><body>
    <p>Welcome to the library.</p><a href="/hours">Opening hours</a></body></html>
    """

private let contact = """
    <!DOCTYPE html><html lang="en"><head><title>Contact</title></head><body>
    <form action="/sent" method="get"><label for="mail">Email</label> <input id="mail" name="mail">
    <button type="submit">Send</button></form></body></html>
    """

/// What the speech log says, utterance by utterance (kind, text, voice, audio file).
private struct Spoken: Equatable {
    var kind: String
    var text: String
    var voice: String
    var audio: String?

    static func all() -> [Spoken] {
        LogCapture.current.filter { $0["PORTHOLE_EVENT"] == "speech" }.map {
            Spoken(kind: $0["PORTHOLE_SPEECH_KIND"] ?? "", text: $0["PORTHOLE_SPEECH_TEXT"] ?? "",
                   voice: $0["PORTHOLE_SPEECH_VOICE"] ?? "", audio: $0["PORTHOLE_SPEECH_AUDIO"])
        }
    }
}

@MainActor
private final class Visit {
    let server = TestServer()
    let window: BrowserWindow
    let audio = NSTemporaryDirectory() + "porthole-speech-\(getpid())-\(UInt32.random(in: 0 ... .max))"
    private var heard = 0

    init() {
        server.route = { request in
            switch request.path {
            case "/contact": .html(contact)
            case "/sent": .html("<!DOCTYPE html><title>Thank you</title><p>Sent.</p>")
            default: .html(library)
            }
        }
        let configuration = TestApp.kioskConfiguration(sites: [
            Site(name: "Library", address: server.url("/")), Site(name: "Contact", address: server.url("/contact")),
        ]) { $0.kiosk.keyboard.mode = .on }
        TestApp.engine.sites = configuration.sites
        TestApp.engine.webProcessPolicy = WebProcessPolicy(configuration: configuration)
        var options = BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration))
        options.speechOutput = .files(directory: audio)
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

    func hear(_ text: String, kind: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> Spoken? {
        hear("\"\(text)\"", { $0.text == text && (kind == nil || $0.kind == kind) }, file: file, line: line)
    }

    func press(_ keyval: Int32, _ modifiers: GdkModifierType = GdkModifierType(rawValue: 0)) {
        UI.press(UInt32(keyval), modifiers: modifiers, in: window)
    }

    /// Presses Tab until `text` is said (at most `limit` times).
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
}

final class SpeechVisitTests: XCTestCase {
    func testABlindVisitIsHeardStepByStep() throws {
        try MainActor.assumeIsolated {
            let visit = Visit()
            defer { visit.end() }
            let window = visit.window
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            XCTAssertTrue(UI.wait { window.headerTitle == "Library" })
            XCTAssertEqual(Spoken.all(), [], "nothing is said before speech is asked for")

            visit.press(GDK_KEY_z, GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue))
            let on = visit.hear("Speech on. Tab moves, Enter opens. Library", kind: "mode")
            XCTAssertEqual(on?.voice, "en")
            XCTAssertTrue(window.speech?.isOn == true)

            // Through the page (its link), then out of it into the kiosk bar.
            _ = visit.tab(to: "Link, Opening hours")
            _ = visit.tab(to: "Button, Sites")

            // Open the Sites menu; arrow to Contact and open it.
            visit.press(GDK_KEY_space)
            visit.hear("the Sites menu's first site") { $0.text.contains("Library") }
            visit.press(GDK_KEY_Down)
            visit.hear("Contact") { $0.text.contains("Contact") }
            visit.press(GDK_KEY_Return)
            visit.hear("Page loaded: Contact", kind: "page")

            // Into the form: the field, the keyboard's keys, the button, sent.
            _ = visit.tab(to: "Text field, Email, empty")
            let keyboard = try XCTUnwrap(window.keyboard)
            XCTAssertTrue(UI.wait(5) { keyboard.isFullyShown }, "the keyboard comes up for the field")
            for letter in ["a", "b"] {
                tap(keyboard.button(for: .character(letter)))
                visit.hear(letter, kind: "key")
            }
            XCTAssertTrue(UI.wait { UI.evaluate("document.getElementById('mail').value", in: window) == "ab" }, "typed")
            _ = visit.tab(to: "Button, Send")
            visit.press(GDK_KEY_Return)
            visit.hear("Page loaded: Thank you", kind: "page")
            XCTAssertEqual(visit.server.count(path: "/sent"), 1, "the form was sent")

            // The audio is real: the file of the first utterance is not silence.
            let file = try XCTUnwrap(on?.audio, "the files output names each utterance's WAV")
            let stat = try soxStat(file)
            XCTAssertGreaterThan(stat["RMS     amplitude"] ?? 0, 0.01, "speech, not silence: \(stat)")
            XCTAssertGreaterThan(stat["Length (seconds)"] ?? 0, 1, "a sentence takes more than a second")
        }
    }
}

extension SpeechVisitTests {
    func testTheKioskBarsSpeechButtonSaysWhatItDoesAndTurnsSpeechOn() {
        MainActor.assumeIsolated {
            let visit = Visit()
            defer { visit.end() }
            let window = visit.window
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: visit.server.url("/")))
            XCTAssertFalse(window.speech?.isOn ?? true)
            // Speech is off, and Tab through the bar says nothing until the speech button.
            _ = visit.tab(to: "Button, Speech. Press Enter or Space to hear the screen read aloud.")
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
