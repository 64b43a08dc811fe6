// More time, speech's longer idle time and the visitor controls, as tables: KioskSession's
// events in, commands out; the idle clock's More time; the [Accessibility] keys.
import XCTest
@testable import PortholeCore

private func kiosk(timeout: Int = 60, warning: Int = 10) -> KioskSettings {
    KioskSettings(enabled: true, idleTimeout: timeout, idleWarning: warning)
}

private func access(_ edit: (inout AccessibilitySettings) -> Void = { _ in }) -> AccessibilitySettings {
    var settings = AccessibilitySettings()
    edit(&settings)
    return settings
}

private func tick(_ now: Double) -> KioskEvent { .tick(at: now, pageLoading: false) }
private let shown: [KioskEvent] = [.input(.other, at: 100), tick(160)]
private let large = VisitorControls(largeText: true)
private let contrast = VisitorControls(highContrast: true)

private struct Row {
    let name: String
    var accessibility = access()
    var settings = kiosk()
    let events: [KioskEvent]
    let then: KioskEvent
    let expect: [KioskCommand]
}

private let rows: [Row] = [
    // More time (WCAG 2.2.1: warned, and extended with one simple action, as often as wanted).
    Row(name: "More time hides the warning", events: shown, then: .moreTime(at: 161), expect: [.hideWarning]),
    Row(name: "after More time no warning comes at the idle timeout", events: shown + [.moreTime(at: 161)], then: tick(221), expect: []),
    Row(name: "after More time the warning comes more-time seconds later", events: shown + [.moreTime(at: 161)], then: tick(281),
        expect: [.showWarning(secondsLeft: 10), .playWarningSound]),
    Row(name: "input after More time does not take the extra time away", events: shown + [.moreTime(at: 161), .input(.touch, at: 170)],
        then: tick(270), expect: []),
    Row(name: "More time is never less than the idle timeout", accessibility: access { $0.moreTime = 5 },
        events: shown + [.moreTime(at: 161)], then: tick(220), expect: []),
    Row(name: "a short more-time still lets the idle timeout run out", accessibility: access { $0.moreTime = 5 },
        events: shown + [.moreTime(at: 161)], then: tick(221), expect: [.showWarning(secondsLeft: 10), .playWarningSound]),
    Row(name: "More time can be asked for again and again",
        events: shown + [.moreTime(at: 161), tick(281), .moreTime(at: 282), tick(390)], then: tick(402),
        expect: [.showWarning(secondsLeft: 10), .playWarningSound]),
    Row(name: "a key during the warning extends too", events: shown, then: .input(.other, at: 161), expect: [.hideWarning]),
    Row(name: "More time with the reset off does nothing", settings: kiosk(timeout: 0), events: [], then: .moreTime(at: 1), expect: []),
    Row(name: "the next visitor's session has no extra time left over",
        events: shown + [.moreTime(at: 161), tick(281), tick(291), .input(.other, at: 300)], then: tick(360),
        expect: [.showWarning(secondsLeft: 10), .playWarningSound]),

    // Speech on: the idle time is longer.
    Row(name: "with speech on the warning does not come at the idle timeout", events: [.speechChanged(on: true), .input(.other, at: 100)],
        then: tick(160), expect: []),
    Row(name: "with speech on it comes at the idle timeout times the factor", events: [.speechChanged(on: true), .input(.other, at: 100)],
        then: tick(280), expect: [.showWarning(secondsLeft: 10), .playWarningSound]),
    Row(name: "the factor is configurable", accessibility: access { $0.idleFactorWithSpeech = 1.5 },
        events: [.speechChanged(on: true), .input(.other, at: 100)], then: tick(190), expect: [.showWarning(secondsLeft: 10), .playWarningSound]),
    Row(name: "speech turned off brings the plain idle time back",
        events: [.speechChanged(on: true), .input(.other, at: 100), .speechChanged(on: false)], then: tick(160),
        expect: [.showWarning(secondsLeft: 10), .playWarningSound]),

    // The visitor controls.
    Row(name: "Larger text turns on, with the configured scale", events: [], then: .visitorControl(.largeText),
        expect: [.applyVisitorControls(large, textScale: 1.5)]),
    Row(name: "pressed again it turns off", events: [.visitorControl(.largeText)], then: .visitorControl(.largeText),
        expect: [.applyVisitorControls(VisitorControls(), textScale: 1)]),
    Row(name: "High contrast turns on", events: [], then: .visitorControl(.highContrast),
        expect: [.applyVisitorControls(contrast, textScale: 1)]),
    Row(name: "both at once", accessibility: access { $0.largeTextScale = 2 }, events: [.visitorControl(.highContrast)],
        then: .visitorControl(.largeText), expect: [.applyVisitorControls(VisitorControls(largeText: true, highContrast: true), textScale: 2)]),
    Row(name: "the idle reset puts them back for the next visitor", events: [.visitorControl(.largeText), .visitorControl(.highContrast)] + shown,
        then: tick(170), expect: [.closeExitDialog, .startNewSession(hideCursorAgain: false), .applyVisitorControls(VisitorControls(), textScale: 1)]),
    Row(name: "a reset with nothing turned on changes nothing", events: shown, then: tick(170),
        expect: [.closeExitDialog, .startNewSession(hideCursorAgain: false)]),
    Row(name: "configured defaults are where each visitor starts", accessibility: access { $0.highContrast = true },
        events: [.visitorControl(.highContrast)] + shown, then: tick(170),
        expect: [.closeExitDialog, .startNewSession(hideCursorAgain: false), .applyVisitorControls(contrast, textScale: 1)]),
    Row(name: "a default turned on is turned off by pressing it", accessibility: access { $0.largeText = true }, events: [],
        then: .visitorControl(.largeText), expect: [.applyVisitorControls(VisitorControls(), textScale: 1)]),
]

final class KioskVisitorTests: XCTestCase {
    func testRows() {
        for row in rows {
            var session = KioskSession(settings: row.settings, accessibility: row.accessibility, at: 0)
            for event in row.events { _ = session.handle(event) }
            XCTAssertEqual(session.handle(row.then), row.expect, row.name)
        }
    }

    func testTheControlsStartAsConfiguredAndSayHowToApplyThem() {
        let session = KioskSession(settings: kiosk(), accessibility: access { $0.largeText = true; $0.largeTextScale = 1.75 }, at: 0)
        XCTAssertEqual(session.visitor, large)
        XCTAssertEqual(session.visitorCommand, .applyVisitorControls(large, textScale: 1.75))
    }

    func testTheWakeUpFollowsMoreTimeAndSpeech() {
        var session = KioskSession(settings: kiosk(), at: 0)
        for event in shown + [.moreTime(at: 161)] { _ = session.handle(event) }
        XCTAssertEqual(session.nextWakeUp(after: 161), 281, "More time: 120 s from the press")
        _ = session.handle(.speechChanged(on: true))
        _ = session.handle(.input(.other, at: 300))
        XCTAssertEqual(session.nextWakeUp(after: 300), 480, "speech: three times the idle timeout")
    }

    func testIdleClockMoreTime() {
        var idle = IdleSession(timeout: 60, warning: 10)
        XCTAssertEqual(idle.moreTime(at: 0, seconds: 120), .none, "fresh: nothing to hide")
        XCTAssertEqual(idle.tick(at: 119), .none)
        XCTAssertEqual(idle.tick(at: 120), .showWarning(secondsLeft: 10))
        XCTAssertEqual(idle.moreTime(at: 125, seconds: 120), .hideWarning)
        XCTAssertEqual(idle.nextTick(after: 125), 245)
        idle.factor = 0.5
        XCTAssertEqual(idle.factor, 1, "a factor under 1 would shorten the configured time")
    }

    func testAccessibilityKeysAreRead() throws {
        let directory = try TemporaryConfigDirectory()
        defer { directory.remove() }
        let file = try directory.write("porthole.conf", """
            [Sites]
            A=a.example
            [Accessibility]
            more-time=300
            idle-factor-with-speech=2.5
            large-text=true
            large-text-scale=2
            high-contrast=true
            """)
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
        XCTAssertEqual(result.problems, [])
        var expected = AccessibilitySettings()
        expected.moreTime = 300
        expected.idleFactorWithSpeech = 2.5
        expected.largeText = true
        expected.largeTextScale = 2
        expected.highContrast = true
        XCTAssertEqual(result.configuration?.accessibility, expected)
        XCTAssertEqual(Configuration().accessibility, AccessibilitySettings(), "absent keys keep the defaults")
    }

    func testBadAccessibilityValuesAreProblems() throws {
        let directory = try TemporaryConfigDirectory()
        defer { directory.remove() }
        let file = try directory.write("porthole.conf", "[Sites]\nA=a.example\n[Accessibility]\nmore-time=2m\nidle-factor-with-speech=20\nlarge-text-scale=1\nhigh-contrast=yes\nspeed=1\n")
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
        let problems = result.problems.map { $0.description.replacingOccurrences(of: file, with: "F") }
        XCTAssertEqual(problems.count, 5, problems.joined(separator: "\n"))
        for (line, key) in [(4, "more-time"), (5, "idle-factor-with-speech"), (6, "large-text-scale"), (7, "high-contrast")] {
            XCTAssertTrue(problems.contains { $0.hasPrefix("F:\(line): Accessibility/\(key): ") }, "\(key): \(problems)")
        }
    }
}
