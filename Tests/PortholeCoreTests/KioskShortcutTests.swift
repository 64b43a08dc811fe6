// The kiosk keyboard: which combinations reach GTK and the page, which are swallowed.
import PortholeCore
import XCTest

final class KioskShortcutTests: XCTestCase {
    private func chord(_ accelerator: String) -> KeyChord { KeyChord(accelerator: accelerator)! }

    func testDefaultAllowlistKeepsBackForwardReloadOnly() {
        let filter = KioskKeyFilter(shortcuts: [.back, .forward, .reload])
        let rows: [(String, KeyDecision)] = [
            // Kept shortcuts.
            ("<Alt>Left", .pass), ("<Alt>Right", .pass), ("F5", .pass), ("<Control>r", .pass),
            ("<Control><Shift>r", .pass), ("Back", .pass),
            // Shortcuts not kept.
            ("<Alt>Home", .swallow("home")), ("<Control>plus", .swallow("zoom")), ("<Control><Shift>plus", .swallow("zoom")),
            ("<Control>f", .swallow("find")), ("F3", .swallow("find")),
            // Escape stays with the page (no accelerator is installed for Stop).
            ("Escape", .pass),
            // Never in kiosk mode.
            ("<Control>q", .swallow("quit or close")), ("<Control><Shift>q", .swallow("quit or close")),
            ("<Control>w", .swallow("quit or close")), ("<Alt>F4", .swallow("quit or close")),
            ("F11", .swallow("full screen")), ("F12", .swallow("developer tools")),
            ("<Control><Shift>i", .swallow("developer tools")), ("<Control>u", .swallow("view source")),
            ("<Control>p", .swallow("print or save")), ("<Control>s", .swallow("print or save")),
            ("<Control>o", .swallow("open a file or address")), ("<Control>l", .swallow("open a file or address")),
            ("<Control>n", .swallow("new window or tab")), ("<Control>t", .swallow("new window or tab")),
            ("<Shift>F10", .swallow("caret browsing or menus")), ("Menu", .swallow("caret browsing or menus")),
            ("<Control><Alt>BackSpace", .swallow("window or session")),
            // Typing and editing reach the page.
            ("a", .pass), ("<Shift>a", .pass), ("<Control>c", .pass), ("<Control>v", .pass), ("<Control>a", .pass),
            ("<Control>z", .pass), ("Tab", .pass), ("<Shift>Tab", .pass), ("Return", .pass), ("BackSpace", .pass),
            ("<Control>i", .pass), ("Left", .pass), ("space", .pass),
        ]
        for (accelerator, expected) in rows {
            XCTAssertEqual(filter.decide(chord(accelerator)), expected, accelerator)
        }
    }

    func testAnEmptyAllowlistRefusesEveryBrowserShortcut() {
        let filter = KioskKeyFilter(shortcuts: [])
        for accelerator in ["<Alt>Left", "<Alt>Right", "F5", "<Control>r", "<Alt>Home"] {
            if case .swallow = filter.decide(chord(accelerator)) { continue }
            XCTFail("\(accelerator) passes with no shortcuts kept")
        }
        XCTAssertEqual(filter.decide(chord("Escape")), .pass)
    }

    func testKeepingZoomFindHomeAndStop() {
        let filter = KioskKeyFilter(shortcuts: [.zoom, .find, .home, .stop])
        for accelerator in ["<Control>plus", "<Control>minus", "<Control>0", "<Control>f", "<Alt>Home", "Escape", "Stop"] {
            XCTAssertEqual(filter.decide(chord(accelerator)), .pass, accelerator)
        }
        XCTAssertEqual(filter.decide(chord("F5")), .swallow("reload"))
    }

    func testKeptShortcutsCannotUnlockQuitting() {
        let filter = KioskKeyFilter(shortcuts: KioskShortcut.allCases)
        XCTAssertEqual(filter.decide(chord("<Control>q")), .swallow("quit or close"))
        XCTAssertEqual(filter.decide(chord("F11")), .swallow("full screen"))
    }

    func testTheExitChordIsMatchedExactlyAndBeatsTheTable() {
        let filter = KioskKeyFilter(shortcuts: [], exitChord: chord("<Control><Alt><Shift>x"))
        XCTAssertEqual(filter.decide(chord("<Control><Alt><Shift>x")), .exitChord)
        XCTAssertEqual(filter.decide(KeyChord("X", [.control, .alt, .shift])), .exitChord, "letters are matched without case")
        XCTAssertEqual(filter.decide(chord("<Control><Alt>x")), .pass)
        let quitChord = KioskKeyFilter(shortcuts: [], exitChord: chord("<Control>q"))
        XCTAssertEqual(quitChord.decide(chord("<Control>q")), .exitChord)
    }

    func testAcceleratorsInstalledInKioskModeAreTheKeptShortcutsOnly() {
        let filter = KioskKeyFilter(shortcuts: [.back, .reload])
        XCTAssertTrue(filter.keepsAccelerator(forAction: "win.back"))
        XCTAssertTrue(filter.keepsAccelerator(forAction: "win.reload"))
        XCTAssertFalse(filter.keepsAccelerator(forAction: "win.forward"))
        XCTAssertFalse(filter.keepsAccelerator(forAction: "win.stop"))
        XCTAssertFalse(filter.keepsAccelerator(forAction: "app.quit"))
        XCTAssertFalse(KioskKeyFilter(shortcuts: KioskShortcut.allCases).keepsAccelerator(forAction: "win.close"))
    }

    func testZoomAndFindAcceleratorsFollowTheirShortcutTokens() {
        let kept = KioskKeyFilter(shortcuts: [.zoom, .find])
        let none = KioskKeyFilter(shortcuts: [])
        for action in ["win.zoom-in", "win.zoom-out", "win.zoom-reset", "win.find", "win.find-next", "win.find-previous"] {
            XCTAssertTrue(kept.keepsAccelerator(forAction: action), action)
            XCTAssertFalse(none.keepsAccelerator(forAction: action), action)
        }
        for action in ["win.print", "win.shortcuts", "win.about"] {
            XCTAssertFalse(KioskKeyFilter(shortcuts: KioskShortcut.allCases).keepsAccelerator(forAction: action), "\(action) is for the desk")
        }
    }

    func testZoomStepsUpAndDownAndStopsAtTheEnds() {
        let rows: [(Double, Double, Double)] = [  // level, larger, smaller
            (1.0, 1.1, 0.9), (1.1, 1.25, 1.0), (1.05, 1.1, 1.0), (3.0, 3.0, 2.5), (0.3, 0.5, 0.3), (5.0, 5.0, 3.0),
        ]
        for (level, larger, smaller) in rows {
            XCTAssertEqual(ZoomLevels.larger(than: level), larger, "larger than \(level)")
            XCTAssertEqual(ZoomLevels.smaller(than: level), smaller, "smaller than \(level)")
        }
        XCTAssertEqual(ZoomLevels.percentage(1.25), "125 %")
    }

    func testAcceleratorParsing() {
        // gtk_accelerator_parse's modifier names (gtk/gtkaccelgroup.c).
        XCTAssertEqual(KeyChord(accelerator: "<Primary>Q"), KeyChord("q", [.control]))
        XCTAssertEqual(KeyChord(accelerator: "<Ctrl><Mod1>Delete"), KeyChord("Delete", [.control, .alt]))
        XCTAssertEqual(KeyChord(accelerator: "<Super>l"), KeyChord("l", [.superKey]))
        XCTAssertEqual(KeyChord(accelerator: "F11"), KeyChord("F11"))
        XCTAssertNil(KeyChord(accelerator: "<Hyperdrive>q"))
        XCTAssertNil(KeyChord(accelerator: "<Control>"))
        XCTAssertNil(KeyChord(accelerator: "<Control"))
        XCTAssertEqual(KeyChord("x", [.control, .alt, .shift]).description, "<Control><Alt><Shift>x")
    }
}
