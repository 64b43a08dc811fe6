// KioskSession as a table: event sequences in, commands out, and the next wake-up time.
import PortholeCore
import XCTest

private let hash = ExitPinHash(salt: [7, 7, 7], pin: "2468")

private func kiosk(_ edit: (inout KioskSettings) -> Void = { _ in }) -> KioskSettings {
    var settings = KioskSettings(enabled: true)
    edit(&settings)
    return settings
}

private let idle = kiosk { $0.idleTimeout = 60; $0.idleWarning = 10 }
private let cursor = kiosk { $0.hideCursor = 5 }
private let reload = kiosk { $0.reloadEvery = 30 }
private let pin = kiosk { $0.exitPinHash = hash; $0.exitChord = "<Control><Alt>x" }
private let exitChord = KeyChord("x", [.control, .alt])

private func tick(_ now: Double, loading: Bool = false) -> KioskEvent { .tick(at: now, pageLoading: loading) }
private let fiveWrong: [KioskEvent] = [.key(exitChord)] + (1...5).flatMap { i in
    [KioskEvent.pinEntered("0000", at: Double(i)), .pinChecked(matched: false, at: Double(i))]
}

private struct Row {
    let name: String
    var settings = kiosk()
    let events: [KioskEvent]
    let then: KioskEvent
    let expect: [KioskCommand]
}

private let rows: [Row] = [
    // Keys: the exit chord, refused keys, kept shortcuts.
    Row(name: "a plain key reaches the page", events: [], then: .key(KeyChord("a")), expect: [.passKey]),
    Row(name: "a kept shortcut passes", settings: kiosk { $0.shortcuts = [.reload] }, events: [], then: .key(KeyChord("F5")), expect: [.passKey]),
    Row(name: "a shortcut the kiosk does not keep is swallowed", settings: kiosk { $0.shortcuts = [] }, events: [],
        then: .key(KeyChord("F5")), expect: [.swallowKey(KeyChord("F5"), why: "reload")]),
    Row(name: "a refused key is swallowed", events: [], then: .key(KeyChord("F11")), expect: [.swallowKey(KeyChord("F11"), why: "full screen")]),
    Row(name: "the exit chord without an exit PIN opens nothing", settings: kiosk { $0.exitChord = "<Control><Alt>x" }, events: [],
        then: .key(exitChord), expect: [.noExitPin]),
    Row(name: "the exit chord opens the exit dialog", settings: pin, events: [], then: .key(exitChord), expect: [.openExitDialog]),
    Row(name: "pressed again, it brings the open dialog up", settings: pin, events: [.key(exitChord)], then: .key(exitChord),
        expect: [.presentExitDialog]),

    // Closing and full screen.
    Row(name: "closing is refused", events: [], then: .closeRequested, expect: [.refuseClose]),
    Row(name: "leaving full screen goes back", events: [], then: .leftFullscreen, expect: [.refullscreen]),
    Row(name: "after the right PIN the window may close", settings: pin,
        events: [.key(exitChord), .pinEntered("2468", at: 1), .pinChecked(matched: true, at: 1)], then: .closeRequested, expect: []),
    Row(name: "after the right PIN it stays out of full screen", settings: pin,
        events: [.key(exitChord), .pinEntered("2468", at: 1), .pinChecked(matched: true, at: 1)], then: .leftFullscreen, expect: []),

    // The visitor session (the idle clock itself is IdleSession's, see KioskIdleSessionTests).
    Row(name: "a fresh session is never reset", settings: idle, events: [], then: tick(10_000), expect: []),
    Row(name: "input is only input", settings: idle, events: [], then: .input(.other, at: 100), expect: []),
    Row(name: "idle time ends in the warning, with its sound", settings: idle, events: [.input(.other, at: 100)], then: tick(160),
        expect: [.showWarning(secondsLeft: 10), .playWarningSound]),
    Row(name: "the countdown's next second updates it", settings: idle, events: [.input(.other, at: 100), tick(160)], then: tick(161),
        expect: [.updateWarning(secondsLeft: 9)]),
    Row(name: "input hides the warning", settings: idle, events: [.input(.other, at: 100), tick(160)], then: .input(.pointer, at: 161),
        expect: [.hideWarning]),
    Row(name: "the deadline starts a new session, closing the exit dialog", settings: idle,
        events: [.input(.other, at: 100), tick(160)], then: tick(170), expect: [.closeExitDialog, .startNewSession(hideCursorAgain: false)]),
    Row(name: "a new session over a hidden cursor hides it on the new page", settings: kiosk { $0.idleTimeout = 60; $0.idleWarning = 10; $0.hideCursor = 5 },
        events: [.input(.touch, at: 100), tick(160)], then: tick(170), expect: [.closeExitDialog, .startNewSession(hideCursorAgain: true)]),
    Row(name: "a new session is not reset again", settings: idle, events: [.input(.other, at: 100), tick(160), tick(170)], then: tick(10_000),
        expect: []),

    // The cursor.
    Row(name: "the cursor hides once the pointer rests", settings: cursor, events: [], then: tick(5), expect: [.hideCursor]),
    Row(name: "not before", settings: cursor, events: [], then: tick(4.9), expect: []),
    Row(name: "pointer motion restarts its clock", settings: cursor, events: [.input(.pointer, at: 3)], then: tick(5), expect: []),
    Row(name: "restarted, it hides as long after the motion", settings: cursor, events: [.input(.pointer, at: 3), tick(5)], then: tick(8),
        expect: [.hideCursor]),
    Row(name: "pointer motion brings it back", settings: cursor, events: [tick(5)], then: .input(.pointer, at: 6), expect: [.showCursor]),
    Row(name: "a finger hides it at once", settings: cursor, events: [], then: .input(.touch, at: 1), expect: [.hideCursor]),
    Row(name: "a second finger changes nothing", settings: cursor, events: [.input(.touch, at: 1)], then: .input(.touch, at: 2), expect: []),
    Row(name: "a touchscreen's pointer does not bring it back", settings: cursor, events: [.input(.touch, at: 1)], then: .input(.other, at: 2),
        expect: []),
    Row(name: "keys leave the cursor alone", settings: cursor, events: [], then: .input(.other, at: 4), expect: []),
    Row(name: "hide-cursor=0 never hides it", events: [], then: tick(100_000), expect: []),

    // Reload-every.
    Row(name: "reload-every reloads the page", settings: reload, events: [], then: tick(30), expect: [.reload]),
    Row(name: "not a page still loading", settings: reload, events: [], then: tick(30, loading: true), expect: []),
    Row(name: "the skipped page is reloaded the next round", settings: reload, events: [tick(30, loading: true)], then: tick(60),
        expect: [.reload]),
    Row(name: "rounds are counted from the last one", settings: reload, events: [tick(31)], then: tick(60), expect: []),
    Row(name: "rounds are counted from the last one, to the second", settings: reload, events: [tick(31)], then: tick(61), expect: [.reload]),

    // The exit PIN.
    Row(name: "a PIN is hashed off the main thread", settings: pin, events: [.key(exitChord)], then: .pinEntered("2468", at: 1),
        expect: [.checkPin("2468", hash)]),
    Row(name: "one PIN at a time", settings: pin, events: [.key(exitChord), .pinEntered("1111", at: 1)], then: .pinEntered("2468", at: 1),
        expect: []),
    Row(name: "the right PIN leaves kiosk mode", settings: pin, events: [.key(exitChord), .pinEntered("2468", at: 1)],
        then: .pinChecked(matched: true, at: 1), expect: [.closeExitDialog, .exit]),
    Row(name: "a wrong PIN says how many tries are left", settings: pin, events: [.key(exitChord), .pinEntered("1111", at: 1)],
        then: .pinChecked(matched: false, at: 1), expect: [.refusePin(.wrong(triesLeft: 4))]),
    Row(name: "after a wrong PIN the next is checked", settings: pin,
        events: [.key(exitChord), .pinEntered("1111", at: 1), .pinChecked(matched: false, at: 1)], then: .pinEntered("2468", at: 2),
        expect: [.checkPin("2468", hash)]),
    Row(name: "the fifth wrong PIN locks PINs out", settings: pin, events: Array(fiveWrong.dropLast()), then: fiveWrong.last!,
        expect: [.refusePin(.lockedOut(secondsLeft: 60))]),
    Row(name: "the lockout line counts down each second", settings: pin, events: fiveWrong, then: tick(6), expect: [.sayLockout(secondsLeft: 59)]),
    Row(name: "the lockout line is not woken in between", settings: pin, events: fiveWrong + [tick(6)], then: tick(6.5), expect: []),
    Row(name: "while locked out, a PIN is refused without hashing", settings: pin, events: fiveWrong, then: .pinEntered("2468", at: 30),
        expect: [.refusePin(.lockedOut(secondsLeft: 35))]),
    Row(name: "at the lockout's end the line says so", settings: pin, events: fiveWrong, then: tick(65), expect: [.sayLockout(secondsLeft: nil)]),
    Row(name: "after the lockout PINs are checked again", settings: pin, events: fiveWrong, then: .pinEntered("2468", at: 65),
        expect: [.checkPin("2468", hash)]),
    Row(name: "cancelling closes the dialog", settings: pin, events: [.key(exitChord)], then: .pinEntered(nil, at: 1), expect: [.closeExitDialog]),
    Row(name: "a closed dialog's lockout line is not kept up", settings: pin, events: fiveWrong + [.pinEntered(nil, at: 5)], then: tick(6),
        expect: []),
    Row(name: "without an exit PIN no PIN is checked", events: [], then: .pinEntered("2468", at: 1), expect: []),
]

private struct WakeUpRow {
    let name: String
    let settings: KioskSettings
    let events: [KioskEvent]
    let now: Double
    let expect: Double?
}

private let wakeUps: [WakeUpRow] = [
    WakeUpRow(name: "an untouched kiosk with nothing to do is never woken", settings: idle, events: [], now: 0, expect: nil),
    WakeUpRow(name: "a used session: at the end of the idle time", settings: idle, events: [.input(.other, at: 100)], now: 100, expect: 160),
    WakeUpRow(name: "the warning: at its next second", settings: idle, events: [.input(.other, at: 100), tick(160.5)], now: 160.5,
              expect: 161),
    WakeUpRow(name: "the cursor: when it hides", settings: cursor, events: [.input(.pointer, at: 2)], now: 2, expect: 7),
    WakeUpRow(name: "a hidden cursor needs no wake-up", settings: cursor, events: [tick(5)], now: 5, expect: nil),
    WakeUpRow(name: "reload-every: at the next round", settings: reload, events: [tick(31)], now: 31, expect: 61),
    WakeUpRow(name: "the earliest of all", settings: kiosk { $0.idleTimeout = 60; $0.hideCursor = 5; $0.reloadEvery = 30 },
              events: [.input(.pointer, at: 20)], now: 20, expect: 25),
    WakeUpRow(name: "the lockout line: a second after it was last said", settings: pin, events: fiveWrong + [tick(6)], now: 6, expect: 7),
    WakeUpRow(name: "long timers are a day", settings: kiosk { $0.hideCursor = 1_000_000 }, events: [], now: 0, expect: 86_400),
]

final class KioskSessionTableTests: XCTestCase {
    func testRows() {
        for row in rows {
            var session = KioskSession(settings: row.settings, at: 0)
            for event in row.events { _ = session.handle(event) }
            XCTAssertEqual(session.handle(row.then), row.expect, row.name)
        }
    }

    func testNextWakeUp() {
        for row in wakeUps {
            var session = KioskSession(settings: row.settings, at: 0)
            for event in row.events { _ = session.handle(event) }
            XCTAssertEqual(session.nextWakeUp(after: row.now), row.expect, row.name)
        }
    }

    func testCountsWhatTheWindowReports() {
        var session = KioskSession(settings: kiosk { $0.idleTimeout = 1; $0.idleWarning = 1 }, at: 0)
        for event: KioskEvent in [.closeRequested, .closeRequested, .key(KeyChord("F11")), .input(.other, at: 0), tick(1), tick(2)] {
            _ = session.handle(event)
        }
        XCTAssertEqual(session.refusedCloses, 2)
        XCTAssertEqual(session.sessionsStarted, 1)
        XCTAssertEqual(session.swallowedKeys, [KeyChord("F11")])
    }

    func testOnlyTheLast32SwallowedKeysAreKept() {
        var session = KioskSession(settings: kiosk(), at: 0)
        for key in 1...40 { _ = session.handle(.key(KeyChord("F11", key % 2 == 0 ? [] : [.shift]))) }
        XCTAssertEqual(session.swallowedKeys.count, 32)
    }
}
