// A config file half-written, not a file at all, too large, or with bytes GKeyFile passes over:
// never read as a wider policy than the admin wrote.
import Foundation
import XCTest
@testable import PortholeCore

final class ConfigReadSafetyTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    private func load(_ file: String, reader: ConfigFileReader = .standard) -> ConfigLoadResult {
        ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator, reader: reader)
    }

    private func problems(bytes: [UInt8]) throws -> [String] {
        let file = directory.path + "/porthole.conf"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return load(file).problems.map { $0.description.replacingOccurrences(of: file, with: "F") }
    }

    private func problems(_ text: String) throws -> [String] { try problems(bytes: Array(text.utf8)) }

    // MARK: Empty block=

    func testAnEmptyBlockListIsAProblemNotAnOpenDoor() throws {
        let sites = "[Sites]\nA=a.example\n[Policy]\n"
        let message = "empty: write block=* to block everything the sites and allow= do not allow, or block=none to block nothing"
        XCTAssertEqual(try problems(sites + "block=\n"), ["F:4: Policy/block: \(message)"])
        XCTAssertEqual(try problems(sites + "block= ; \n"), ["F:4: Policy/block: \(message)"])
        XCTAssertEqual(try problems(sites + "block=none;evil.example\n"), ["F:4: Policy/block: none cannot be combined with filters"])
        let file = try directory.write("none.conf", sites + "block=none\n")
        XCTAssertEqual(load(file).configuration?.block, [])
        let star = try directory.write("star.conf", sites + "block=*\n")
        XCTAssertEqual(load(star).configuration?.block, ["*"])
    }

    // MARK: Bytes GKeyFile passes over

    func testANulByteIsAProblemOnItsLine() throws {
        let text = Array("[Sites]\nA=a.example\n[Policy]\nallow=evil.example".utf8) + [0] + Array("junk\n".utf8)
        XCTAssertEqual(try problems(bytes: text), ["F:4: contains a NUL byte, which a text file cannot hold"])
    }

    func testAByteOrderMarkAtTheStartIsAccepted() throws {
        XCTAssertEqual(try problems(bytes: [0xEF, 0xBB, 0xBF] + Array("[Sites]\nA=a.example\n".utf8)), [])
        // Anywhere else it is text GKeyFile cannot read.
        XCTAssertEqual(try problems(bytes: Array("[Sites]\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("[Policy]\n".utf8)).count, 1)
    }

    func testNamesThatAreNotUTF8AreProblemsOnTheirLine() throws {
        XCTAssertEqual(try problems(bytes: Array("[Sites]\nA=a.example\n[Po".utf8) + [0xFF] + Array("licy]\n".utf8)),
                       ["F:3: not UTF-8 text"])
        XCTAssertEqual(try problems(bytes: Array("[Sites]\nA=a.example\nB".utf8) + [0xFF] + Array("=b.example\n".utf8)),
                       ["F:3: not UTF-8 text"])
    }

    func testEveryProblemIsOneLine() throws {
        // `\n` and `\r` in a keyfile value are escapes for line breaks; the problem shows them escaped.
        let lines = try problems("[Sites]\nA=a.example\n[Policy]\nallow=bad filter\\nsecond line\\r\n")
        XCTAssertEqual(lines.count, 1)
        XCTAssertFalse(lines[0].contains("\n") || lines[0].contains("\r"), lines[0])
        XCTAssertTrue(lines[0].contains("bad filter\\nsecond line\\r"), lines[0])
    }

    // MARK: Not a regular file, too large

    func testAFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let fifo = directory.path + "/fifo.conf"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertEqual(load(fifo).problems.map(\.description), ["\(fifo):0: cannot read: not a regular file"])
        var out: [String] = [], err: [String] = []
        let status = ConfigCheckCommand.run(path: fifo, sources: ConfigSources(), validateFilter: standInFilterValidator,
                                            out: { out.append($0) }, err: { err.append($0) })
        XCTAssertEqual(status, 1)
        XCTAssertEqual(err, ["\(fifo):0: cannot read: not a regular file"])
    }

    func testADeviceIsRefused() {
        XCTAssertEqual(load("/dev/zero").problems.map(\.description), ["/dev/zero:0: cannot read: not a regular file"])
    }

    func testAFileOverSixteenMebibytesIsRefused() throws {
        let file = directory.path + "/big.conf"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("[Sites]\nA=a.example\n".utf8)))
        XCTAssertEqual(truncate(file, off_t(ConfigFileReader.sizeLimit)), 0)
        XCTAssertFalse(load(file).problems.contains { $0.message.contains("16 MiB") }, "16 MiB itself is allowed")
        XCTAssertEqual(truncate(file, off_t(ConfigFileReader.sizeLimit + 1)), 0)
        XCTAssertEqual(load(file).problems.map(\.description), ["\(file):0: cannot read: larger than 16 MiB"])
        XCTAssertEqual(load(directory.path).problems.map(\.description), ["\(directory.path):0: cannot read: is a directory"])
        XCTAssertEqual(load(directory.path + "/missing.conf").problems.map(\.description),
                       ["\(directory.path)/missing.conf:0: cannot read: no such file"])
    }

    // MARK: Stable reads

    /// A file that a tool rewrites in place, seen by successive reads. The pause between two
    /// reads is where the test advances the file, so no clock is involved.
    private final class RewrittenFile: @unchecked Sendable {  // touched only on the test's thread
        var versions: [String]
        var reads = 0
        var pauses = 0
        var log: [String] = []
        init(_ versions: [String]) { self.versions = versions }

        var reader: ConfigFileReader {
            ConfigFileReader(tries: 4, pause: { if self.versions.count > 1 { self.versions.removeFirst() } },
                             unchangedFor: { _ in 0 }, readOnce: { _ in self.reads += 1; return Array(self.versions[0].utf8) })
        }
    }

    func testAFileIsUsedOnlyOnceTwoReadsAgree() throws {
        let file = try directory.write("porthole.conf", "unused")
        let full = "[Sites]\nA=a.example\n[Policy]\nblock=*\n[Kiosk]\nenabled=true\n"
        let rewritten = RewrittenFile(["[Sites]\nA=a.example\n[Policy]\nblock=", full, full])
        let result = load(file, reader: rewritten.reader)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.configuration?.block, ["*"])
        XCTAssertEqual(result.configuration?.kiosk.enabled, true)
        XCTAssertEqual(rewritten.reads, 3)
    }

    func testAFileThatKeepsChangingIsATransientProblem() throws {
        let file = try directory.write("porthole.conf", "unused")
        let rewritten = RewrittenFile((1...10).map { "[Sites]\nA=a\($0).example\n" })
        let result = load(file, reader: rewritten.reader)
        XCTAssertEqual(rewritten.reads, 4)
        XCTAssertTrue(result.isTransient)
        XCTAssertEqual(result.problems.map(\.description), [
            "\(file):0: changed while being read: replace configuration files atomically (write a new file, then rename it over the old one)",
        ])
        XCTAssertNil(result.configuration)
    }

    /// A file left alone for `settledAfter` seconds is read once, with no pause; a younger one,
    /// or one whose age cannot be told, is read until two reads agree.
    func testOneReadOfAFileLeftAloneForASecondTwoOfAYoungerOne() throws {
        let file = try directory.write("porthole.conf", "unused")
        let full = "[Sites]\nA=a.example\n"
        for (age, reads, expectedPauses) in [(5.0, 1, 0), (ConfigFileReader.settledAfter, 1, 0), (0.999, 2, 1), (0, 2, 1), (nil, 2, 1)] as [(Double?, Int, Int)] {
            let counts = RewrittenFile([full])
            let reader = ConfigFileReader(pause: { counts.pauses += 1 }, unchangedFor: { _ in age },
                                          readOnce: { _ in counts.reads += 1; return Array(full.utf8) })
            XCTAssertEqual(load(file, reader: reader).problems, [], "age \(String(describing: age))")
            XCTAssertEqual(counts.reads, reads, "age \(String(describing: age))")
            XCTAssertEqual(counts.pauses, expectedPauses, "age \(String(describing: age))")
        }
    }

    /// The age is asked after the read: a file still being written when it was read is not
    /// settled, however old it was before.
    func testTheAgeIsAskedAfterTheRead() throws {
        let file = try directory.write("porthole.conf", "unused")
        let rewritten = RewrittenFile(["[Sites]\nA=", "[Sites]\nA=a.example\n", "[Sites]\nA=a.example\n"])
        let reader = ConfigFileReader(tries: 4, pause: { rewritten.log.append("pause"); if rewritten.versions.count > 1 { rewritten.versions.removeFirst() } },
                                      unchangedFor: { _ in rewritten.log.append("age"); return 0 },
                                      readOnce: { _ in rewritten.log.append("read"); return Array(rewritten.versions[0].utf8) })
        let result = load(file, reader: reader)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(rewritten.log, ["read", "age", "pause", "read", "pause", "read"])
    }

    func testTheAgeOfARealFile() throws {
        let file = try directory.write("porthole.conf", "[Sites]\nA=a.example\n")
        let age = try XCTUnwrap(ConfigFileReader.secondsSinceChange(file))
        XCTAssertGreaterThan(age, -1)   // file systems may stamp with a coarser clock
        XCTAssertLessThan(age, ConfigFileReader.settledAfter, "a file just written is not settled")
        XCTAssertNil(ConfigFileReader.secondsSinceChange(directory.path + "/missing.conf"))
    }

    // MARK: Reloads

    func testAReloadKeepsTheRunningConfigurationWhileAFileKeepsChanging() throws {
        let file = try directory.write("porthole.conf", "unused")
        let running = try XCTUnwrap(load(try directory.write("running.conf", "[Sites]\nA=a.example\n")).configuration)
        let result = load(file, reader: RewrittenFile((1...10).map { "[Sites]\nA=a\($0).example\n" }).reader)
        guard case .keep(let reason) = ConfigReload.decide(result, running: running) else {
            return XCTFail("a file still changing must not replace the running configuration")
        }
        XCTAssertTrue(reason.contains(file), reason)
    }

    func testAReloadNeverTurnsKioskModeOff() throws {
        let kiosk = try XCTUnwrap(load(try directory.write("kiosk.conf", "[Sites]\nA=a.example\n[Kiosk]\nenabled=true\n")).configuration)
        let cut = load(try directory.write("cut.conf", "[Sites]\nA=a.example\n[Kio"))
        let desk = load(try directory.write("desk.conf", "[Sites]\nA=a.example\n[Kiosk]\nenabled=false\n"))
        for result in [cut, desk] {
            guard case .apply(let next, let notes) = ConfigReload.decide(result, running: kiosk) else { return XCTFail() }
            XCTAssertTrue(next.kiosk.enabled)
            XCTAssertEqual(notes, ["kiosk mode stays on until Porthole restarts"])
        }
        // A desk browser may become a kiosk only by restarting; the configuration says so already.
        let deskConfiguration = try XCTUnwrap(desk.configuration)
        guard case .apply(let next, let notes) = ConfigReload.decide(desk, running: deskConfiguration) else { return XCTFail() }
        XCTAssertFalse(next.kiosk.enabled)
        XCTAssertEqual(notes, [])
    }
}
