// `porthole --check-config [FILE]`: exit status and what it prints.
import XCTest
@testable import PortholeCore

final class ConfigCheckCommandTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    private func check(_ path: String?, _ sources: ConfigSources) -> (status: Int32, out: [String], err: [String]) {
        var out: [String] = [], err: [String] = []
        let status = ConfigCheckCommand.run(path: path, sources: sources, validateFilter: standInFilterValidator,
                                            out: { out.append($0) }, err: { err.append($0) })
        return (status, out, err)
    }

    func testAGoodFileIsOk() throws {
        let file = try directory.write("good.conf", "[Sites]\nHome=example.com\n")
        let run = check(file, ConfigSources(system: directory.path + "/none.conf"))
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.out, ["\(file): ok"])
        XCTAssertEqual(run.err, [])
    }

    func testEveryProblemIsPrintedAndTheStatusIsOne() throws {
        let file = try directory.write("bad.conf", "[Sites]\nHome=example.com\n[Browser]\njavascript=maybe\nzoom=10\n")
        let run = check(file, ConfigSources())
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.out, [])
        XCTAssertEqual(run.err, [
            "\(file):4: Browser/javascript: expected true or false",
            "\(file):5: Browser/zoom: out of range: expected 0.25 to 5.0",
        ])
    }

    func testAFileIsCheckedWithTheSystemFileItWouldBeReadWith() throws {
        let system = try directory.write("etc/porthole.conf", "[Sites]\nSchool=school.example\n[Locks]\nkeys=Browser/zoom\n")
        let file = try directory.write("mine.conf", "[Browser]\nzoom=2\n")
        let run = check(file, ConfigSources(user: directory.path + "/user.conf", system: system))
        XCTAssertEqual(run.status, 0, "notices are not problems")
        XCTAssertEqual(run.err, ["--config file \(file): Browser/zoom is locked by \(system)"])
        XCTAssertEqual(run.out, ["\(system): ok", "\(file): ok"])
    }

    func testTheSystemFileIsCheckedAlone() throws {
        let system = try directory.write("etc/porthole.conf", "[Sites]\nSchool=school.example\n[Locks]\nkeys=Sites\n")
        let user = try directory.write("user.conf", "[Browser]\nzoom=seven\n")
        let run = check(directory.path + "/etc/../etc/porthole.conf", ConfigSources(user: user, system: system))
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.out, ["\(system): ok"])
    }

    func testWithoutAFileWhatPortholeWouldLoadIsChecked() throws {
        let bundled = try directory.write("share/porthole.conf", "[Sites]\nHome=example.com\n")
        let user = try directory.write("user.conf", "[Sites]\nHome=example.com\n[Kiosk]\nhide-cursor=-1\n")
        XCTAssertEqual(check(nil, ConfigSources(bundled: bundled)).out, ["\(bundled): ok"])
        let run = check(nil, ConfigSources(user: user, bundled: bundled))
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.err, ["\(user):4: Kiosk/hide-cursor: out of range: expected 0 or more"])
    }

    func testAMissingFileFails() {
        let run = check(directory.path + "/missing.conf", ConfigSources())
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.err, ["\(directory.path)/missing.conf:0: cannot read: no such file"])
    }
}
