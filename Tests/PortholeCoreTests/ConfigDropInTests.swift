// /etc/porthole/porthole.conf.d/*.conf: read after the system file in lexical order, key by key,
// as part of the admin's layer (their [Locks] count and the locks do not hold them back).
import XCTest
@testable import PortholeCore

final class ConfigDropInTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    /// Writes the system file (when given), the drop-ins (name → text) and the user file (when
    /// given), and loads them.
    private func load(system: String?, dropIns: [String: String], user: String? = nil) throws -> ConfigLoadResult {
        for (name, text) in dropIns { _ = try directory.write("etc/porthole.conf.d/" + name, text) }
        let sources = ConfigSources(user: try user.map { try directory.write("home/porthole.conf", $0) } ?? directory.path + "/home/none.conf",
                                    system: try system.map { try directory.write("etc/porthole.conf", $0) } ?? directory.path + "/etc/none.conf",
                                    systemDropIns: directory.path + "/etc/porthole.conf.d",
                                    bundled: try directory.write("share/porthole.conf", "[Sites]\nBundled=bundled.example\n"))
        return ConfigLoader.load(sources: sources, validateFilter: standInFilterValidator)
    }

    func testDropInsOverrideTheSystemFileKeyByKeyInLexicalOrder() throws {
        let result = try load(system: "[Sites]\nSchool=school.example\n[Browser]\nzoom=1.5\njavascript=false\n", dropIns: [
            "20-zoom.conf": "[Browser]\nzoom=2\n",
            "10-zoom.conf": "[Browser]\nzoom=1.25\n",
            "Z-upper.conf": "[Kiosk]\nprinting=true\n",
            "sites.conf": "[Sites]\nLibrary=library.example\n",
            ".20-zoom.conf.swp": "[Browser]\nzoom=3\n",
            "notes.txt": "not a config file",
            "30-later.conf.disabled": "[Browser]\nzoom=4\n",
        ])
        XCTAssertEqual(result.problems, [])
        let configuration = try XCTUnwrap(result.configuration)
        XCTAssertEqual(configuration.browser.zoom, 2, "20- is read after 10-")
        XCTAssertFalse(configuration.browser.javascript, "keys a drop-in does not set keep the system file's value")
        XCTAssertTrue(configuration.kiosk.printing)
        XCTAssertEqual(configuration.sites.sites.map(\.name), ["Library"], "a drop-in's [Sites] replaces the list")
        let dropIns = directory.path + "/etc/porthole.conf.d/"
        XCTAssertEqual(result.sources, [directory.path + "/etc/porthole.conf", dropIns + "10-zoom.conf", dropIns + "20-zoom.conf",
                                        dropIns + "Z-upper.conf", dropIns + "sites.conf"], "each file read, in order (byte order: Z before s)")
    }

    func testDropInLocksHoldTheUserFileButNotOtherDropIns() throws {
        let result = try load(system: "[Sites]\nSchool=school.example\n", dropIns: [
            "50-locks.conf": "[Locks]\nkeys=Browser/zoom;Policy\n",
            "60-zoom.conf": "[Browser]\nzoom=1.5\n",
        ], user: "[Browser]\nzoom=3\njavascript=false\n")
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.configuration?.browser.zoom, 1.5, "the admin's later drop-in may set a locked key")
        XCTAssertEqual(result.configuration?.browser.javascript, false, "the user file still applies to unlocked keys")
        let user = directory.path + "/home/porthole.conf"
        XCTAssertEqual(result.notices.map(\.description),
                       ["user file \(user): Browser/zoom is locked by \(directory.path)/etc/porthole.conf.d/50-locks.conf"])
    }

    func testDropInsWithoutASystemFileReplaceTheBundledDefault() throws {
        let result = try load(system: nil, dropIns: ["sites.conf": "[Sites]\nMuseum=museum.example\n"])
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.configuration?.sites.sites.map(\.name), ["Museum"])
    }

    func testAProblemInADropInFailsClosedAndNamesTheFile() throws {
        let result = try load(system: "[Sites]\nSchool=school.example\n", dropIns: ["10-bad.conf": "[Browser]\nzoom=huge\n"],
                              user: "[Browser]\njavascript=false\n")
        XCTAssertEqual(result.problems.map(\.description),
                       ["\(directory.path)/etc/porthole.conf.d/10-bad.conf:2: Browser/zoom: expected a number, like 1.25"])
        XCTAssertNil(result.configuration)
    }
}
