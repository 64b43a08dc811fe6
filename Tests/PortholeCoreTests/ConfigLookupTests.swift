// Which files are read: --config, the XDG user file, the system file, the bundled default.
import XCTest
@testable import PortholeCore

final class ConfigLookupTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    func testStandardSourcesFollowXDGConfigHome() {
        let rows: [(environment: [String: String], user: String?)] = [
            (["XDG_CONFIG_HOME": "/srv/config", "HOME": "/home/pupil"], "/srv/config/porthole/porthole.conf"),
            (["HOME": "/home/pupil"], "/home/pupil/.config/porthole/porthole.conf"),
            // XDG Base Directory spec: "If an implementation encounters a relative path in any of
            // these variables it should consider the path invalid and ignore it."
            (["XDG_CONFIG_HOME": "relative/config", "HOME": "/home/pupil"], "/home/pupil/.config/porthole/porthole.conf"),
            (["XDG_CONFIG_HOME": "", "HOME": "/home/pupil"], "/home/pupil/.config/porthole/porthole.conf"),
            ([:], nil),
        ]
        for row in rows {
            let sources = ConfigSources.standard(commandLine: nil, environment: row.environment, dataDirectory: "/usr/share/porthole")
            XCTAssertEqual(sources, ConfigSources(commandLine: nil, user: row.user, system: "/etc/porthole/porthole.conf",
                                                  systemDropIns: "/etc/porthole/porthole.conf.d", bundled: "/usr/share/porthole/porthole.conf"), "\(row.environment)")
        }
        XCTAssertEqual(ConfigSources.standard(commandLine: "kiosk.conf", environment: [:], dataDirectory: nil),
                       ConfigSources(commandLine: "kiosk.conf", user: nil, system: "/etc/porthole/porthole.conf",
                                     systemDropIns: "/etc/porthole/porthole.conf.d", bundled: nil))
    }

    func testTheSystemPathIgnoresTheEnvironment() {
        let sources = ConfigSources.standard(commandLine: nil, environment: ["XDG_CONFIG_DIRS": "/tmp/evil", "PORTHOLE_DATA_DIR": "/tmp/evil"],
                                             dataDirectory: nil)
        XCTAssertEqual(sources.system, "/etc/porthole/porthole.conf")
    }

    func testLookupOrder() throws {
        // Which of the four files exist → which are read, in order.
        let rows: [(exist: Set<String>, read: [String])] = [
            (["bundled"], ["bundled"]),
            (["user", "bundled"], ["user"]),
            (["system", "bundled"], ["system"]),
            (["system", "user", "bundled"], ["system", "user"]),
            (["commandLine", "user", "bundled"], ["commandLine"]),
            (["commandLine", "system", "user", "bundled"], ["system", "commandLine"]),
        ]
        for row in rows {
            let root = directory.path + "/\(UUID().uuidString)"
            let paths = ["commandLine": root + "/given.conf", "user": root + "/xdg/porthole/porthole.conf",
                         "system": root + "/etc/porthole/porthole.conf", "bundled": root + "/share/porthole/porthole.conf"]
            for name in row.exist {
                let path = try XCTUnwrap(paths[name])
                try directory.write(String(path.dropFirst(directory.path.count + 1)), "[Sites]\n\(name)=\(name.lowercased()).example\n")
            }
            let sources = ConfigSources.standard(commandLine: row.exist.contains("commandLine") ? paths["commandLine"] : nil,
                                                 environment: ["XDG_CONFIG_HOME": root + "/xdg"], dataDirectory: root + "/share/porthole")
            let local = ConfigSources(commandLine: sources.commandLine, user: sources.user, system: paths["system"], bundled: sources.bundled)
            let result = ConfigLoader.load(sources: local, validateFilter: standInFilterValidator)
            XCTAssertEqual(result.problems, [], "\(row.exist)")
            XCTAssertEqual(result.sources, row.read.compactMap { paths[$0] }, "\(row.exist)")
            XCTAssertEqual(result.configuration?.sites.home?.name, row.read.last, "\(row.exist)")
        }
    }

    func testAMissingConfigFileIsAProblemNotAFallback() throws {
        let bundled = try directory.write("share/porthole.conf", "[Sites]\nA=a.example\n")
        let missing = directory.path + "/missing.conf"
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: missing, bundled: bundled), validateFilter: standInFilterValidator)
        XCTAssertEqual(result.problems.map(\.description), ["\(missing):0: cannot read: no such file"])
        XCTAssertEqual(result.effectiveConfiguration.sites, SiteList([Configuration.startPage]))
    }

    func testAUserPathThatIsADirectoryIsAProblem() throws {
        let user = directory.path + "/porthole.conf"
        try FileManager.default.createDirectory(atPath: user, withIntermediateDirectories: true)
        let result = ConfigLoader.load(sources: ConfigSources(user: user), validateFilter: standInFilterValidator)
        XCTAssertEqual(result.problems.map(\.description), ["\(user):0: cannot read: is a directory"])
    }

    func testNoFileAnywhereIsAProblem() {
        let sources = ConfigSources(user: directory.path + "/u.conf", system: directory.path + "/s.conf", bundled: directory.path + "/b.conf")
        let result = ConfigLoader.load(sources: sources, validateFilter: standInFilterValidator)
        XCTAssertEqual(result.problems.map(\.description), [
            "\(directory.path)/b.conf:0: no configuration file found (looked for \(directory.path)/u.conf, \(directory.path)/s.conf, \(directory.path)/b.conf)",
        ])
        XCTAssertNil(result.configuration)
    }
}
