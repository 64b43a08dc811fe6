// The desk and the kiosk as Orca sees them: the real binary on a real AT-SPI bus, its tree walked
// by pyatspi (Tests/Accessibility/walk-tree.py), every control a keyboard or a screen reader
// reaches named and with a role, in English and in Russian.
import Foundation
import PortholeCore
import TestSupport
import XCTest

private struct Walk: Decodable {
    struct Control: Decodable {
        let role: String
        let name: String
        let showing: Bool
    }
    struct Dialog: Decodable {
        struct Focused: Decodable {
            let role: String
            let name: String
        }
        let name: String?
        let focused: Focused?
    }
    let controls: [Control]
    let problems: [String]
    /// With the walk's dialog mode: the showing dialog and its focus.
    let dialog: Dialog?
}

final class AccessibilityTreeTests: XCTestCase {
    func testEveryControlHasANameAndARoleAtTheDeskAndInTheKioskInEnglishAndRussian() throws {
        try MainActor.assumeIsolated {
            let pyatspi = try Subprocess.run("/usr/bin/python3", ["-c", "import pyatspi"])
            XCTAssertEqual(pyatspi.status, 0, "the walk needs python3-pyatspi and at-spi2-core (make deps): \(pyatspi.stderr)")
            guard pyatspi.status == 0 else { return }
            let server = TestServer()
            defer { server.stop() }
            // A field with the focus brings the on-screen keyboard up in the kiosk: its keys are
            // walked too.
            server.route = { _ in .html("<!DOCTYPE html><html lang=en><head><title>Search</title></head><body>"
                                        + "<label>Search <input id=q autofocus></label></body></html>") }
            let script = BuildProducts.packageRoot + "/Tests/Accessibility/walk-tree.py"
            let expected: [String: [String: [String]]] = [
                "en": ["desk": ["Back", "Forward", "Open", "Main menu"],
                       "kiosk": ["Back", "Home", "Sites", "Larger text", "High contrast", "More time"]],
                "ru": ["desk": ["Назад", "Вперёд", "Открыть", "Главное меню"],
                       "kiosk": ["Назад", "Домой", "Сайты", "Крупный текст", "Высокий контраст", "Ещё время"]],
            ]
            for language in ["en", "ru"] {
                for mode in ["desk", "kiosk"] {
                    let bus = try PrivateBus()
                    let home = TemporaryDirectory()
                    defer {
                        bus.stop()
                        home.remove()
                    }
                    let config = home.write("porthole.conf", """
                        [Sites]
                        Search=\(server.url("/search"))
                        Other=\(server.url("/other"))
                        [Browser]
                        languages=\(language)
                        [Kiosk]
                        keyboard=\(mode == "kiosk")
                        idle-timeout=600
                        """)
                    // The bridge on (the other tests run without it), on this test's own session
                    // bus, where dbus-daemon starts at-spi-bus-launcher when GTK asks for org.a11y.Bus.
                    let browser = try Subprocess("/usr/bin/env", ["-u", "NO_AT_BRIDGE", BuildProducts.porthole, "--config", config]
                                                 + (mode == "kiosk" ? ["--kiosk"] : []),
                                                 environment: bus.environment(home: home))
                    defer { browser.stop() }
                    // In the kiosk, once the on-screen keyboard is up for the focused field (its Q key shows).
                    let walk = try Subprocess.run("/usr/bin/python3", [script, String(browser.process.processIdentifier), "60"] + (mode == "kiosk" ? ["q"] : []),
                                                  environment: bus.environment(home: home), timeout: 120)
                    let what = "\(mode), \(language)"
                    let result = try? JSONDecoder().decode(Walk.self, from: Data(walk.stdout.utf8))
                    XCTAssertNotNil(result, "\(what): the walk's report: \(walk.stdout) \(walk.stderr)")
                    guard let result else { continue }
                    XCTAssertEqual(result.problems, [], "\(what): controls without a name or a role")
                    XCTAssertEqual(walk.status, 0, "\(what): \(walk.stderr)")
                    let names = Set(result.controls.map(\.name))
                    for name in expected[language]![mode]! {
                        XCTAssertTrue(names.contains(name), "\(what): \(name) is on the bus: \(names.sorted())")
                    }
                    if mode == "kiosk" {
                        let keys = result.controls.filter { $0.role == "push button" && $0.showing }.count
                        XCTAssertGreaterThan(keys, 30, "\(what): the on-screen keyboard's keys are walked too")
                    }
                }
            }
        }
    }

    /// Porthole's two dialogs as Orca meets them: the sign-in dialog (HTTP authentication) at the
    /// desk and the exit PIN dialog in the kiosk (its chord pressed through XTest, as a keyboard
    /// would): each has a name, every control in it a name and a role, and the field to type in
    /// has the focus as it opens, in English and Russian.
    func testTheSignInAndExitPinDialogsAreNamedAndTheirFieldHasTheFocus() throws {
        try MainActor.assumeIsolated {
            let pyatspi = try Subprocess.run("/usr/bin/python3", ["-c", "import pyatspi"])
            XCTAssertEqual(pyatspi.status, 0, "the walk needs python3-pyatspi and at-spi2-core (make deps): \(pyatspi.stderr)")
            guard pyatspi.status == 0 else { return }
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in
                request.path == "/staff" ? .unauthorized(realm: "Staff")
                    : .html("<!DOCTYPE html><html lang=en><head><title>Home</title></head><body><p>Home</p></body></html>")
            }
            let script = BuildProducts.packageRoot + "/Tests/Accessibility/walk-tree.py"
            let hashed = try Subprocess.run("/bin/sh", ["-c", "echo 2468 | \"$0\" --hash-pin", BuildProducts.porthole])
            let pinLine = hashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertTrue(pinLine.hasPrefix("exit-pin-hash="), pinLine)
            // The focused field's name in each language.
            let expected: [String: [String: String]] = [
                "en": ["sign-in": "User name", "pin": "Exit PIN"],
                "ru": ["sign-in": "Имя пользователя", "pin": "PIN-код выхода"],
            ]
            for language in ["en", "ru"] {
                for dialog in ["sign-in", "pin"] {
                    let bus = try PrivateBus()
                    let home = TemporaryDirectory()
                    defer {
                        bus.stop()
                        home.remove()
                    }
                    let config = home.write("porthole.conf", """
                        [Sites]
                        \(dialog == "pin" ? "Home" : "Staff")=\(server.url(dialog == "pin" ? "/" : "/staff"))
                        [Browser]
                        languages=\(language)
                        [Kiosk]
                        keyboard=false
                        idle-timeout=600
                        exit-chord=<Control><Alt>q
                        \(pinLine)
                        """)
                    let browser = try Subprocess("/usr/bin/env", ["-u", "NO_AT_BRIDGE", BuildProducts.porthole, "--config", config]
                                                 + (dialog == "pin" ? ["--kiosk"] : []),
                                                 environment: bus.environment(home: home))
                    defer { browser.stop() }
                    let pid = String(browser.process.processIdentifier)
                    let what = "\(dialog), \(language)"
                    if dialog == "pin" {
                        // The kiosk up (its window on the bus), then the exit chord from the keyboard.
                        let up = try Subprocess.run("/usr/bin/python3", [script, pid, "60"], environment: bus.environment(home: home), timeout: 120)
                        XCTAssertEqual(up.status, 0, "\(what): the kiosk came up: \(up.stdout) \(up.stderr)")
                        let key = try Subprocess.run("/usr/bin/xdotool", ["key", "ctrl+alt+q"], environment: bus.environment(home: home))
                        XCTAssertEqual(key.status, 0, "\(what): xdotool: \(key.stderr)")
                    }
                    let walk = try Subprocess.run("/usr/bin/python3", [script, pid, "60", "", "dialog"],
                                                  environment: bus.environment(home: home), timeout: 120)
                    let result = try? JSONDecoder().decode(Walk.self, from: Data(walk.stdout.utf8))
                    XCTAssertNotNil(result, "\(what): the walk's report: \(walk.stdout) \(walk.stderr)")
                    guard let result else { continue }
                    XCTAssertEqual(result.problems, [], "\(what): \(walk.stdout)")
                    XCTAssertEqual(walk.status, 0, "\(what): \(walk.stderr)")
                    XCTAssertFalse((result.dialog?.name ?? "").isEmpty, "\(what): the dialog is named")
                    XCTAssertEqual(result.dialog?.focused?.name, expected[language]![dialog]!, "\(what): the field to type in has the focus")
                }
            }
        }
    }
}
