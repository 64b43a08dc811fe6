// A file that exists as a name but cannot be read, or that is empty, is never read as "no file":
// that would lift the system file's locks or fall back to the bundled sites. And every problem
// says where it is, on one line a terminal shows as it is.
import Foundation
import XCTest
@testable import PortholeCore

final class ConfigMissingFileTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    private func symlink(_ name: String, to target: String) throws -> String {
        let path = directory.path + "/" + name
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        return path
    }

    func testADanglingOrLoopingSystemFileFailsClosed() throws {
        let user = try directory.write("user.conf", "[Sites]\nA=a.example\n[Policy]\nblock=none\n")
        let bundled = try directory.write("bundled.conf", "[Sites]\nB=b.example\n")
        let dangling = try symlink("dangling.conf", to: directory.path + "/nowhere.conf")
        let looping = try symlink("loop.conf", to: directory.path + "/loop.conf")
        for system in [dangling, looping] {
            let result = ConfigLoader.load(sources: ConfigSources(user: user, system: system, bundled: bundled), validateFilter: URLFilter.validator)
            XCTAssertNil(result.configuration, system)
            XCTAssertTrue(result.problems.first?.description.hasPrefix(system + ":0: cannot read: ") == true, "\(result.problems)")
            XCTAssertEqual(result.effectiveConfiguration.block, ["*"], "the locks are not lifted")
            XCTAssertTrue(result.effectiveConfiguration.isFailClosed)
        }
    }

    func testADanglingDropInFolderFailsClosed() throws {
        let system = try directory.write("system.conf", "[Sites]\nA=a.example\n")
        let folder = try symlink("porthole.conf.d", to: directory.path + "/nowhere")
        let result = ConfigLoader.load(sources: ConfigSources(system: system, systemDropIns: folder), validateFilter: URLFilter.validator)
        XCTAssertNil(result.configuration)
        XCTAssertTrue(result.problems.first?.description.hasPrefix(folder + ":0: cannot read the drop-in folder") == true, "\(result.problems)")
    }

    func testAnUnreadableUserFileIsAProblemNotTheBundledSites() throws {
        let bundled = try directory.write("bundled.conf", "[Sites]\nB=b.example\n")
        let user = try symlink("user.conf", to: directory.path + "/nowhere.conf")
        let result = ConfigLoader.load(sources: ConfigSources(user: user, bundled: bundled), validateFilter: URLFilter.validator)
        XCTAssertEqual(result.problems.map(\.description), [user + ":0: cannot read: no such file"])
        XCTAssertFalse(result.sources.contains(bundled))
        XCTAssertTrue(result.effectiveConfiguration.isFailClosed)
    }

    /// An empty system file means a write cut short, not "no locks": decided and documented in
    /// docs/site-policy.md. A comment line says "nothing" on purpose.
    func testAnEmptySystemFileIsAProblem() throws {
        let user = try directory.write("user.conf", "[Sites]\nA=a.example\n[Policy]\nblock=none\n")
        for text in ["", "\n  \n"] {
            let system = try directory.write("system.conf", text)
            let result = ConfigLoader.load(sources: ConfigSources(user: user, system: system), validateFilter: URLFilter.validator)
            XCTAssertEqual(result.problems.count, 1, "\(result.problems)")
            XCTAssertTrue(result.problems.first?.description.hasPrefix(system + ":1: empty: ") == true, "\(result.problems)")
            XCTAssertEqual(result.effectiveConfiguration.block, ["*"])
        }
        let system = try directory.write("system.conf", "# no system settings\n")
        let result = ConfigLoader.load(sources: ConfigSources(user: user, system: system), validateFilter: URLFilter.validator)
        XCTAssertEqual(result.problems, [])
    }

    func testProblemLinesEscapeControlCharacters() throws {
        let file = try directory.write("porthole.conf", "[Sites]\nA=a.example\n[Policy]\nblock=*;\u{1B}]0;x\u{07};a\u{0B}b;c\u{85}d;e\u{2028}f;g\u{202E}h\n")
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: URLFilter.validator)
        XCTAssertFalse(result.problems.isEmpty)
        for problem in result.problems {
            let text = problem.description
            XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x202E }, text)
        }
        let all = result.problems.map(\.description).joined(separator: "\n")
        XCTAssertTrue(all.contains("\\x1b]0"), all)
        XCTAssertTrue(all.contains("a\\x0bb"), all)
        XCTAssertTrue(all.contains("c\\x85d"), all)
        XCTAssertTrue(all.contains("e\\u2028f"), all)
    }

    /// Rows the fuzzing found without a line: GLib's "Invalid group name", `key[]`.
    func testEveryProblemHasALine() throws {
        let rows: [(String, String)] = [
            ("[Sites]\nA=a.example\n[gr\u{01}p]\nx=1\n", "F:3: "),
            ("[Sites]\nA=a.example\nkey[]=x\n", "F:3: "),
            ("[Sites]\nA=a.example\n[Policy]\nallow[de]=x.example\n", "F:4: "),
        ]
        for (text, prefix) in rows {
            let file = try directory.write("porthole.conf", text)
            let problems = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: URLFilter.validator)
                .problems.map { $0.description.replacingOccurrences(of: file, with: "F") }
            XCTAssertFalse(problems.isEmpty, text)
            XCTAssertTrue(problems.allSatisfy { $0.hasPrefix(prefix) }, "\(text.debugDescription): \(problems)")
        }
    }

    /// `block=*` turned into `block=j` by one bit is a valid file no one means: warned about by
    /// the loader, so at start, on reload and in --check-config alike.
    func testAPolicyWithoutDefaultDenyIsWarnedAbout() throws {
        let file = try directory.write("porthole.conf", "[Sites]\nA=a.example\n[Policy]\nblock=j\n")
        var err: [String] = []
        let status = ConfigCheckCommand.run(path: file, sources: ConfigSources(), validateFilter: URLFilter.validator, out: { _ in }, err: { err.append($0) })
        XCTAssertEqual(status, 0)
        XCTAssertEqual(err, [file + ": warning: the block list has no catch-all *: every address the sites and allow= do not name is allowed too; write block=* to allow only them"])
        let safe = try directory.write("safe.conf", "[Sites]\nA=a.example\n[Policy]\nblock=*;j\n")
        XCTAssertEqual(ConfigLoader.load(sources: ConfigSources(commandLine: safe), validateFilter: URLFilter.validator).notices, [])
    }
}
