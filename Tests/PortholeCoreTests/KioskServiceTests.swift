// systemd notifications and the exit PIN: what is sent, and what a PIN check answers.
import PortholeCore
import XCTest

final class KioskServiceTests: XCTestCase {
    func testNotifySocketAddressesAndWatchdogInterval() throws {
        // sd_notify(3): NOTIFY_SOCKET is a path or, with a leading @, an abstract socket name.
        // sd_watchdog_enabled(3): WATCHDOG_USEC, and WATCHDOG_PID when set must be our PID.
        let rows: [([String: String], ServiceNotification.Address?, UInt32?)] = [
            ([:], nil, nil),
            (["NOTIFY_SOCKET": ""], nil, nil),
            (["NOTIFY_SOCKET": "@"], nil, nil),
            (["NOTIFY_SOCKET": "vsock:2:1234"], nil, nil),
            (["NOTIFY_SOCKET": "/run/user/1000/systemd/notify"], .path("/run/user/1000/systemd/notify"), nil),
            (["NOTIFY_SOCKET": "@/org/freedesktop/systemd1/notify"], .abstract("/org/freedesktop/systemd1/notify"), nil),
            (["NOTIFY_SOCKET": "/n", "WATCHDOG_USEC": "30000000"], .path("/n"), 15_000),
            (["NOTIFY_SOCKET": "/n", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"], .path("/n"), 15_000),
            (["NOTIFY_SOCKET": "/n", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "43"], .path("/n"), nil),
            (["NOTIFY_SOCKET": "/n", "WATCHDOG_USEC": "0"], .path("/n"), nil),
            (["NOTIFY_SOCKET": "/n", "WATCHDOG_USEC": "soon"], .path("/n"), nil),
            (["NOTIFY_SOCKET": "/n", "WATCHDOG_USEC": "1000"], .path("/n"), 1),
        ]
        for (environment, address, interval) in rows {
            let notification = ServiceNotification(environment: environment, pid: 42)
            XCTAssertEqual(notification?.address, address, "\(environment)")
            XCTAssertEqual(notification?.watchdogInterval, interval, "\(environment)")
        }
    }

    func testMessagesAreSdNotifyAssignments() {
        XCTAssertEqual(ServiceNotification.Message.ready(status: "Showing https://a.example/").text,
                       "READY=1\nSTATUS=Showing https://a.example/")
        XCTAssertEqual(ServiceNotification.Message.watchdog.text, "WATCHDOG=1")
        XCTAssertEqual(ServiceNotification.Message.stopping.text, "STOPPING=1")
        XCTAssertEqual(ServiceNotification.Message.status("a\nWATCHDOG=1").text, "STATUS=a WATCHDOG=1",
                       "a status cannot smuggle in another assignment")
    }

    func testExitPinGateLimitsGuesses() throws {
        let hash = ExitPinHash(salt: [1, 2, 3], pin: "2468")
        var gate = ExitPinGate(hash: hash, maximumTries: 3, lockout: 60)
        XCTAssertEqual(gate.check("1111", at: 0), .wrong(triesLeft: 2))
        XCTAssertEqual(gate.check("2468", at: 1), .correct, "a right PIN clears the count")
        XCTAssertEqual(gate.check("1111", at: 2), .wrong(triesLeft: 2))
        XCTAssertEqual(gate.check("1112", at: 3), .wrong(triesLeft: 1))
        XCTAssertEqual(gate.check("1113", at: 4), .lockedOut(secondsLeft: 60))
        XCTAssertEqual(gate.check("2468", at: 30), .lockedOut(secondsLeft: 34), "even the right PIN waits")
        XCTAssertEqual(gate.check("2468", at: 64), .correct)
        XCTAssertEqual(ExitPinGate.message(for: .wrong(triesLeft: 1)), "Wrong PIN. 1 try left.")
    }

    func testTheLockoutMessageCountsDownToTheMomentPinsAreCheckedAgain() {
        var gate = ExitPinGate(hash: ExitPinHash(salt: [1], pin: "2468"), maximumTries: 1, lockout: 60)
        XCTAssertNil(gate.lockoutSecondsLeft(at: 0))
        XCTAssertEqual(gate.check("1111", at: 10), .lockedOut(secondsLeft: 60))
        let rows: [(Double, Int?)] = [(10, 60), (10.5, 60), (11, 59), (69.2, 1), (70, nil), (100, nil)]
        for (now, left) in rows {
            XCTAssertEqual(gate.lockoutSecondsLeft(at: now), left, "at \(now)")
        }
        XCTAssertEqual(ExitPinGate.message(for: .lockedOut(secondsLeft: 1)), "Too many wrong PINs. Try again in 1 second.")
        XCTAssertEqual(ExitPinGate.message(for: .lockedOut(secondsLeft: 42)), "Too many wrong PINs. Try again in 42 seconds.")
        XCTAssertEqual(ExitPinGate.message(for: .wrong(triesLeft: 3)), "Wrong PIN. 3 tries left.")
    }

    func testHashPinPrintsASlowHashThatMatchesThePin() throws {
        var output: [String] = []
        var errors: [String] = []
        let status = HashPinCommand.run(readLine: { "2468" }, out: { output.append($0) }, err: { errors.append($0) })
        XCTAssertEqual(status, 0)
        XCTAssertEqual(errors, [])
        let line = try XCTUnwrap(output.first)
        XCTAssertTrue(line.hasPrefix("exit-pin-hash=$y$"), "yescrypt: \(line)")
        let hash = try XCTUnwrap(ExitPinHash(String(line.dropFirst("exit-pin-hash=".count))))
        XCTAssertTrue(hash.matches(pin: "2468"))
        XCTAssertFalse(hash.matches(pin: "2469"))
    }

    func testHashPinRefusesUnusablePins() {
        for (input, problem) in [(nil, "got nothing"), ("", "empty"), ("12", "shorter than 4"), ("12\u{7}34", "control")] as [(String?, String)] {
            var errors: [String] = []
            let status = HashPinCommand.run(readLine: { input }, out: { _ in XCTFail("printed a hash") },
                                            err: { errors.append($0) })
            XCTAssertEqual(status, 1)
            XCTAssertTrue(errors.first?.contains(problem) ?? false, "\(errors)")
        }
    }
}
