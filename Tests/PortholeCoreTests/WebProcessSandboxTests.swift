// `[Browser] sandbox=`: where bubblewrap cannot run, auto says so at a desk and fails closed in
// kiosk mode; true fails closed; false is the admin's choice.
import Foundation
import PortholeCore
import XCTest

final class WebProcessSandboxTests: XCTestCase {
    func testTheSandboxDecision() {
        let missing = WebProcessSandbox.Availability.unavailable(reason: "No permissions to create new namespace")
        let rows: [(WebProcessSandbox, WebProcessSandbox.Availability, kiosk: Bool, sandboxed: Bool, problem: Bool, warning: Bool)] = [
            (.auto, .runs, false, true, false, false),
            (.auto, .runs, true, true, false, false),
            (.auto, missing, false, false, false, true),   // desk: runs, loudly
            (.auto, missing, true, false, true, false),    // kiosk: fails closed
            (.on, .runs, false, true, false, false),
            (.on, missing, false, false, true, false),
            (.on, missing, true, false, true, false),
            (.off, .runs, true, false, false, false),
            (.off, missing, true, false, false, false),    // the admin's explicit choice
        ]
        for row in rows {
            let decision = row.0.decide(bubblewrap: row.1, kiosk: row.kiosk)
            let name = "\(row.0) \(row.1) kiosk=\(row.kiosk)"
            XCTAssertEqual(decision.sandboxed, row.sandboxed, name)
            XCTAssertEqual(decision.problem != nil, row.problem, name)
            XCTAssertEqual(decision.warning != nil, row.warning, name)
            if row.problem { XCTAssertTrue(decision.problem!.contains("sandbox=false"), "says how to run without it: \(name)") }
            if row.problem || row.warning { XCTAssertTrue((decision.problem ?? decision.warning)!.contains("namespace"), "says why: \(name)") }
        }
        XCTAssertEqual(WebProcessSandbox.Decision(sandboxed: true).statusText, "on")
        XCTAssertEqual(WebProcessSandbox.auto.decide(bubblewrap: missing, kiosk: false).statusText,
                       "off (pages run without the web process sandbox: No permissions to create new namespace)")
    }

    func testTheSettingIsReadAsAutoTrueOrFalse() throws {
        let directory = NSTemporaryDirectory() + "porthole-sandbox-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (text, expected) in [("auto", WebProcessSandbox.auto), ("true", .on), ("false", .off)] {
            let file = directory + "/\(text).conf"
            try "[Sites]\nA=a.example\n[Browser]\nsandbox=\(text)\n".write(toFile: file, atomically: true, encoding: .utf8)
            let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
            XCTAssertEqual(result.configuration?.browser.sandbox, expected, text)
        }
        let file = directory + "/bad.conf"
        try "[Sites]\nA=a.example\n[Browser]\nsandbox=sometimes\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
        XCTAssertEqual(result.problems.map(\.description), ["\(file):4: Browser/sandbox: expected auto, true or false"])
    }
}
