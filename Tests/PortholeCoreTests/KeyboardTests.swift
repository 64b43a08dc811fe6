// The on-screen keyboard's decisions: layouts, which field gets which shape, Shift and Caps,
// what a key types, when `auto` offers it, and its configuration keys.
import Foundation
@testable import PortholeCore
import XCTest

final class KeyboardTests: XCTestCase {
    private func letters(_ layout: KeyboardLayout) -> [String] {
        layout.rows.flatMap { $0 }.compactMap { if case .character(let c) = $0.action, c.first?.isLetter == true { c } else { nil } }
    }

    private func actions(_ layout: KeyboardLayout) -> [KeyAction] { layout.rows.flatMap { $0 }.map(\.action) }

    func testEachLanguageHasItsHardwareLetterOrder() {
        // First letters of the top letter row, as printed on each country's keyboards.
        let rows: [(KeyboardLanguage, String, String)] = [
            (.en, "qwerty", "a"), (.ru, "йцукен", "ф"), (.de, "qwertz", "a"), (.fr, "azerty", "q"),
        ]
        for (language, top, homeStart) in rows {
            let layout = KeyboardLayout.layout(.text, language: language, canSwitch: false)
            let topRow = layout.rows[1].compactMap { if case .character(let c) = $0.action { c } else { nil } }.joined()
            XCTAssertTrue(topRow.hasPrefix(top), "\(language): \(topRow)")
            XCTAssertEqual(layout.rows[2].dropFirst().first?.action, .character(homeStart), "\(language)")  // after Caps
            XCTAssertEqual(Set(letters(layout)).count, letters(layout).count, "\(language): no letter twice")
        }
        XCTAssertEqual(letters(KeyboardLayout.layout(.text, language: .ru, canSwitch: false)).count, 33, "all 33 Russian letters")
        XCTAssertEqual(Set(letters(KeyboardLayout.layout(.text, language: .de, canSwitch: false))).intersection(["ä", "ö", "ü", "ß"]).count, 4)
        XCTAssertEqual(Set(letters(KeyboardLayout.layout(.text, language: .fr, canSwitch: false))).intersection(["é", "è", "à", "ç"]).count, 4)
    }

    func testTextLayoutsHaveTheEditingKeys() {
        for language in KeyboardLanguage.allCases {
            let keys = actions(KeyboardLayout.layout(.text, language: language, canSwitch: true))
            for action in [KeyAction.backspace, .enter, .shift, .caps, .space, .left, .right, .hide, .nextLanguage] {
                XCTAssertTrue(keys.contains(action), "\(language) lacks \(action)")
            }
            XCTAssertTrue((0...9).allSatisfy { keys.contains(.character(String($0))) }, "\(language) has a digit row")
        }
        XCTAssertFalse(actions(KeyboardLayout.layout(.text, language: .en, canSwitch: false)).contains(.nextLanguage),
                       "one language: no switch key")
    }

    func testAddressLayoutTypesEmailAndWebAddressesInLatinLetters() {
        let address = actions(KeyboardLayout.layout(.address, language: .ru, canSwitch: true))
        for action in [KeyAction.character("@"), .character("."), .character("/"), .text(".com"), .enter, .backspace] {
            XCTAssertTrue(address.contains(action), "\(action)")
        }
        XCTAssertTrue(address.contains(.character("q")) && !address.contains(.character("й")), "Russian falls back to QWERTY")
        XCTAssertTrue(actions(KeyboardLayout.layout(.address, language: .de, canSwitch: true)).contains(.character("z")))
    }

    func testNumericPadsHaveDigitsAndTheirSigns() {
        let rows: [(KeyboardKind, [String])] = [
            (.numeric(extras: []), []), (.numeric(extras: [".", ","]), [".", ","]), (.numeric(extras: ["+", "*", "#"]), ["+", "*", "#"]),
        ]
        for (kind, extras) in rows {
            let keys = actions(KeyboardLayout.layout(kind, language: .en, canSwitch: true))
            XCTAssertTrue((0...9).allSatisfy { keys.contains(.character(String($0))) })
            XCTAssertTrue(extras.allSatisfy { keys.contains(.character($0)) })
            XCTAssertFalse(keys.contains(.character("a")))
            XCTAssertTrue(keys.contains(.backspace) && keys.contains(.enter) && keys.contains(.hide))
        }
    }

    func testFieldsGetTheirShapeOfKeyboard() {
        // inputmode beats type (HTML Living Standard, "the inputmode attribute").
        let rows: [(FieldFocus, KeyboardKind?)] = [
            (FieldFocus(tag: "input"), .text),
            (FieldFocus(tag: "input", type: "text"), .text),
            (FieldFocus(tag: "input", type: "search"), .text),
            (FieldFocus(tag: "input", type: "password"), .text),
            (FieldFocus(tag: "input", type: "email"), .address),
            (FieldFocus(tag: "input", type: "url"), .address),
            (FieldFocus(tag: "input", type: "tel"), .numeric(extras: ["+", "*", "#"])),
            (FieldFocus(tag: "input", type: "number"), .numeric(extras: ["-", "."])),
            (FieldFocus(tag: "input", inputMode: "numeric"), .numeric(extras: [])),
            (FieldFocus(tag: "input", inputMode: "decimal"), .numeric(extras: [".", ","])),
            (FieldFocus(tag: "input", inputMode: "tel"), .numeric(extras: ["+", "*", "#"])),
            (FieldFocus(tag: "input", type: "number", inputMode: "text"), .text),
            (FieldFocus(tag: "input", inputMode: "email"), .address),
            (FieldFocus(tag: "input", inputMode: "none"), nil),
            (FieldFocus(tag: "input", type: "checkbox"), nil),
            (FieldFocus(tag: "input", type: "submit"), nil),
            (FieldFocus(tag: "input", type: "date"), nil),
            (FieldFocus(tag: "input", acceptsText: false), nil),
            (FieldFocus(tag: "textarea"), .text),
            (FieldFocus(tag: "textarea", inputMode: "numeric"), .numeric(extras: [])),
            (FieldFocus(tag: "div"), .text),
        ]
        for (field, kind) in rows { XCTAssertEqual(field.keyboardKind, kind, "\(field)") }
    }

    func testFocusMessagesFromThePageScript() {
        XCTAssertEqual(FieldFocus(message: "focus;input;tel;;1"), FieldFocus(tag: "input", type: "tel"))
        XCTAssertEqual(FieldFocus(message: "focus;textarea;;numeric;0"), FieldFocus(tag: "textarea", inputMode: "numeric", acceptsText: false))
        for message in ["blur", "", "focus;input", "focus;input;text;;1;extra", "show;input;text;;1"] {
            XCTAssertNil(FieldFocus(message: message), message)
        }
    }

    func testShiftCapitalisesOneLetterAndCapsEveryLetter() {
        var state = KeyboardState(languages: [.en, .ru])
        state.focus(FieldFocus(tag: "input"))
        let typed: [(KeyAction, KeyOutput?)] = [
            (.character("a"), .type("a")),
            (.shift, nil), (.character("b"), .type("B")), (.character("c"), .type("c")),
            (.caps, nil), (.character("d"), .type("D")), (.character("e"), .type("E")), (.character("1"), .type("1")),
            (.caps, nil), (.character("f"), .type("f")),
            (.nextLanguage, nil), (.shift, nil), (.character("п"), .type("П")), (.character("р"), .type("р")),
            (.shift, nil), (.shift, nil), (.character("и"), .type("и")),
            (.caps, nil), (.character("ß"), .type("ß")),
            (.text(".com"), .type(".com")), (.space, .type(" ")),
            (.backspace, .backspace), (.enter, .enter), (.left, .left), (.right, .right),
        ]
        for (index, (action, output)) in typed.enumerated() {
            XCTAssertEqual(state.press(action), output, "press \(index): \(action)")
        }
        XCTAssertEqual(state.language, .ru)
        XCTAssertEqual(state.shift, .locked)
        XCTAssertEqual(state.face(.character("ж")).label, "Ж", "keys show capitals under Caps")
    }

    func testHideKeyAndBlurHideAndANewSessionForgetsTheState() {
        var state = KeyboardState(languages: [.en, .ru, .de])
        XCTAssertFalse(state.isVisible)
        state.focus(FieldFocus(tag: "input", type: "button"))
        XCTAssertFalse(state.isVisible, "a button gets no keyboard")
        state.focus(FieldFocus(tag: "input"))
        XCTAssertTrue(state.isVisible)
        _ = state.press(.hide)
        XCTAssertFalse(state.isVisible)
        state.focus(FieldFocus(tag: "input"))
        _ = state.press(.nextLanguage)
        _ = state.press(.caps)
        state.focus(nil)
        XCTAssertFalse(state.isVisible, "blur hides it")
        state.focus(FieldFocus(tag: "input"))
        state.reset()
        XCTAssertEqual(state, KeyboardState(languages: [.en, .ru, .de]), "hidden, first language, no Caps")
    }

    func testLayoutKeyCyclesTheConfiguredLanguagesAndNamesTheNextOne() {
        var state = KeyboardState(languages: [.en, .ru, .de])
        XCTAssertEqual(state.face(.nextLanguage).label, "EN", "the key shows the layout in use, not the next")
        XCTAssertEqual(state.face(.space).label, "English", "so does the space bar")
        XCTAssertEqual(state.face(.nextLanguage).accessibleName, "Switch to Russian", "and says where it goes")
        var seen: [KeyboardLanguage] = []
        for _ in 0..<4 {
            seen.append(state.language)
            _ = state.press(.nextLanguage)
        }
        XCTAssertEqual(seen, [.en, .ru, .de, .en])
        XCTAssertEqual(state.face(.space).label, "Russian")
        XCTAssertEqual(state.face(.nextLanguage).label, "RU")
        XCTAssertEqual(state.face(.nextLanguage).accessibleName, "Switch to German")
        XCTAssertEqual(KeyboardState(languages: []).languages, [.en], "never empty")
    }

    func testCapsLockAndShiftShowWhetherTheyAreOn() {
        var state = KeyboardState(languages: [.en])
        XCTAssertFalse(state.face(.caps).isOn)
        XCTAssertFalse(state.face(.shift).isOn)
        _ = state.press(.caps)
        XCTAssertTrue(state.face(.caps).isOn, "Caps Lock is lit while locked")
        XCTAssertEqual(state.face(.caps).accessibleName, "Caps Lock is on")
        XCTAssertFalse(state.face(.shift).isOn)
        _ = state.press(.caps)
        XCTAssertFalse(state.face(.caps).isOn)
        _ = state.press(.shift)
        XCTAssertTrue(state.face(.shift).isOn)
        XCTAssertFalse(state.face(.caps).isOn)
    }

    /// Only the space bar's label is a word; every other special key is a symbol of a character
    /// or two in every language, so no row is wider than its keys allow.
    func testOnlyTheSpaceBarCarriesAWord() {
        let state = KeyboardState(languages: KeyboardLanguage.allCases)
        for kind in [KeyboardKind.text, .address, .numeric(extras: ["+"])] {
            for action in actions(KeyboardLayout.layout(kind, language: .de, canSwitch: true)) where action != .space {
                if case .text = action { continue }
                XCTAssertLessThanOrEqual(state.face(action).label.count, 2, "\(action): \(state.face(action).label)")
            }
        }
        XCTAssertTrue(state.face(.space).mayShorten)
    }

    func testEveryKeyHasAnAccessibleName() {
        let state = KeyboardState(languages: [.en, .fr])
        for kind in [KeyboardKind.text, .address, .numeric(extras: ["+"])] {
            for action in actions(KeyboardLayout.layout(kind, language: .fr, canSwitch: true)) {
                XCTAssertFalse(state.face(action).accessibleName.isEmpty, "\(action)")
                XCTAssertFalse(state.face(action).label.isEmpty, "\(action)")
            }
        }
        XCTAssertEqual(state.face(.backspace).accessibleName, "Backspace")
    }

    func testAutoOffersTheKeyboardOnlyWithATouchscreen() {
        let rows: [(KeyboardMode, [InputDeviceKind], Bool)] = [
            (.auto, [], false),
            (.auto, [.mouse, .keyboard, .touchpad], false),
            (.auto, [.mouse, .touchscreen], true),
            (.auto, [.touchscreen], true),
            (.auto, [.pen], false),
            (.on, [], true),
            (.on, [.mouse], true),
            (.off, [.touchscreen], false),
        ]
        for (mode, devices, offered) in rows {
            XCTAssertEqual(KeyboardSettings.isOffered(mode, devices: devices), offered, "\(mode) \(devices)")
        }
    }

    func testUnsetKeyboardIsAutoInKioskModeAndOffAtADesk() {
        XCTAssertEqual(KeyboardSettings().mode(kiosk: true), .auto)
        XCTAssertEqual(KeyboardSettings().mode(kiosk: false), .off)
        XCTAssertEqual(KeyboardSettings(mode: .on).mode(kiosk: false), .on)
        XCTAssertEqual(KeyboardSettings(mode: .auto).mode(kiosk: false), .auto)
        XCTAssertEqual(KeyboardSettings(mode: .off).mode(kiosk: true), .off)
    }

    // MARK: Configuration

    private func load(_ text: String) -> ConfigLoadResult {
        let path = NSTemporaryDirectory() + "porthole-keyboard-\(UUID().uuidString).conf"
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return ConfigLoader.load(sources: ConfigSources(commandLine: path), validateFilter: { _ in nil })
    }

    func testKeyboardKeysAreReadAndChecked() {
        let base = "[Sites]\nA=a.example\n"
        XCTAssertEqual(load(base).configuration?.kiosk.keyboard, KeyboardSettings())
        let set = load(base + "[Kiosk]\nkeyboard=true\nkeyboard-layouts=ru;en;fr\nkeyboard-height=0.4\n[Browser]\npinch-zoom=true\n")
        XCTAssertEqual(set.problems.map(\.key), [])
        XCTAssertEqual(set.configuration?.kiosk.keyboard, KeyboardSettings(mode: .on, languages: [.ru, .en, .fr], height: 0.4))
        XCTAssertEqual(set.configuration?.browser.pinchZoom, true)
        XCTAssertEqual(load(base + "[Kiosk]\nkeyboard=auto\n").configuration?.kiosk.keyboard.mode, .auto)
        XCTAssertEqual(load(base + "[Kiosk]\nkeyboard=false\n").configuration?.kiosk.keyboard.mode, .off)
        XCTAssertNil(load(base).configuration?.browser.pinchZoom, "unset: decided by kiosk mode")
        XCTAssertNil(load(base + "[Browser]\npinch-zoom=\n").configuration?.browser.pinchZoom, "empty: the same")
        XCTAssertNil(load(base + "[Kiosk]\nkeyboard=\n").configuration?.kiosk.keyboard.mode, "empty: decided by kiosk mode")

        let bad: [(String, String, String)] = [
            ("keyboard=sometimes", "Kiosk/keyboard", "expected auto, true or false"),
            ("keyboard=yes", "Kiosk/keyboard", "expected auto, true or false"),
            ("keyboard-layouts=en;xx", "Kiosk/keyboard-layouts", "unknown keyboard layout \"xx\""),
            ("keyboard-layouts=en;en", "Kiosk/keyboard-layouts", "a layout is listed twice"),
            ("keyboard-layouts=", "Kiosk/keyboard-layouts", "expected at least one layout"),
            ("keyboard-height=0.9", "Kiosk/keyboard-height", "out of range"),
            ("keyboard-height=tall", "Kiosk/keyboard-height", "expected a number"),
        ]
        for (line, key, message) in bad {
            let result = load(base + "[Kiosk]\n\(line)\n[Browser]\npinch-zoom=some\n")
            XCTAssertEqual(result.problems.map(\.key), [key, "Browser/pinch-zoom"], line)
            XCTAssertTrue(result.problems.first?.description.contains(message) ?? false, "\(line): \(result.problems)")
        }
    }
}

final class SecondFingerFilterTests: XCTestCase {
    func testOnlyTheFirstFingerReachesThePageWithoutPinchZoom() {
        var filter = SecondFingerFilter<Int>()
        let rows: [(Int, SecondFingerFilter<Int>.Phase, Bool)] = [
            (1, .begin, false), (1, .update, false),
            (2, .begin, true), (2, .update, true), (1, .update, false),  // a second finger: a pinch
            (1, .end, false), (2, .update, true), (2, .end, true),
            (3, .begin, false), (3, .end, false),  // one finger again: a tap
        ]
        for (index, (sequence, phase, dropped)) in rows.enumerated() {
            XCTAssertEqual(filter.drops(sequence, phase), dropped, "row \(index)")
        }
    }
}
