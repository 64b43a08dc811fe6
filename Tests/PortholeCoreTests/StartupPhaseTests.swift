// StartupPhase as a table: a phase and an event in, the steps and the next phase out.
import PortholeCore
import XCTest

final class StartupPhaseTests: XCTestCase {
    private struct Row {
        let name: String
        let phase: StartupPhase
        let event: StartupEvent
        let steps: [StartupStep]
        let next: StartupPhase
    }

    private let rows: [Row] = [
        Row(name: "own options read the configuration, then try the early start",
            phase: .unprepared, event: .ownOptions, steps: [.prepare, .startEarly], next: .prepared),
        Row(name: "the configuration is read once", phase: .prepared, event: .ownOptions, steps: [], next: .prepared),
        Row(name: "the early start made the engine and the window",
            phase: .prepared, event: .startedEarly, steps: [], next: .prestarted),
        Row(name: "another Porthole runs: the early start is dropped",
            phase: .prestarted, event: .registered(isRemote: true), steps: [.dropEarlyStart], next: .running),
        Row(name: "the primary instance keeps its early start",
            phase: .prestarted, event: .registered(isRemote: false), steps: [], next: .prestarted),
        Row(name: "without an early start there is nothing to drop",
            phase: .prepared, event: .registered(isRemote: true), steps: [], next: .prepared),
        Row(name: "a command line without the early start starts everything",
            phase: .unprepared, event: .commandLine(isRemote: false, givesSettings: false), steps: [.prepare, .startEngine], next: .running),
        Row(name: "no display before registering: the engine starts with the command line",
            phase: .prepared, event: .commandLine(isRemote: false, givesSettings: true), steps: [.startEngine], next: .running),
        Row(name: "the own command line's page loads in the early window already",
            phase: .prestarted, event: .commandLine(isRemote: false, givesSettings: true), steps: [.keepEarlyPage], next: .prestarted),
        Row(name: "a later command line's settings cannot change the running browser",
            phase: .running, event: .commandLine(isRemote: true, givesSettings: true), steps: [.sayConfigurationStays], next: .running),
        Row(name: "a later command line without settings just shows its page",
            phase: .running, event: .commandLine(isRemote: true, givesSettings: false), steps: [], next: .running),
        Row(name: "a later command line before the early window is shown loads its own page",
            phase: .prestarted, event: .commandLine(isRemote: true, givesSettings: true), steps: [.sayConfigurationStays], next: .prestarted),
        Row(name: "the early window becomes the application's",
            phase: .prestarted, event: .windowRequested(hasWindow: true), steps: [.attachEarlyWindow], next: .running),
        Row(name: "an early window that is gone is made anew",
            phase: .prestarted, event: .windowRequested(hasWindow: false), steps: [.makeWindow], next: .running),
        Row(name: "the running window is raised", phase: .running, event: .windowRequested(hasWindow: true), steps: [.presentWindow], next: .running),
        Row(name: "a closed window is made anew", phase: .running, event: .windowRequested(hasWindow: false), steps: [.makeWindow], next: .running),
        Row(name: "no window without an engine", phase: .prepared, event: .windowRequested(hasWindow: false), steps: [], next: .prepared),
        Row(name: "the early start happens only before the command line",
            phase: .running, event: .startedEarly, steps: [], next: .running),
    ]

    func testEachEventTakesStartUpOneStepOn() {
        for row in rows {
            var phase = row.phase
            XCTAssertEqual(phase.handle(row.event), row.steps, row.name)
            XCTAssertEqual(phase, row.next, row.name)
        }
    }

    func testOnlyAStartedEngineTakesAReload() {
        XCTAssertEqual([StartupPhase.unprepared, .prepared, .prestarted, .running].map(\.hasEngine), [false, false, true, true])
    }

    /// The path of a first `porthole URL` with a display, and of one that finds another running.
    func testTheTwoUsualStartsRunInOrder() {
        var phase = StartupPhase.unprepared
        let first = [StartupEvent.ownOptions, .startedEarly, .registered(isRemote: false),
                     .commandLine(isRemote: false, givesSettings: false), .windowRequested(hasWindow: true)].flatMap { phase.handle($0) }
        XCTAssertEqual(first, [.prepare, .startEarly, .keepEarlyPage, .attachEarlyWindow])
        XCTAssertEqual(phase, .running)
        var second = StartupPhase.unprepared
        let handedOver = [StartupEvent.ownOptions, .startedEarly, .registered(isRemote: true)].flatMap { second.handle($0) }
        XCTAssertEqual(handedOver, [.prepare, .startEarly, .dropEarlyStart])
    }
}
