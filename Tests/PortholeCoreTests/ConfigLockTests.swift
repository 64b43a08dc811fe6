// The system file's locks beat the user file, --config and command-line overrides; each attempt is one notice.
import XCTest
@testable import PortholeCore

final class ConfigLockTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    private func load(system: String?, user: String? = nil, commandLine: String? = nil,
                      overrides: [ConfigKey: String] = [:]) throws -> (ConfigLoadResult, ConfigSources) {
        let sources = ConfigSources(commandLine: try commandLine.map { try directory.write("given.conf", $0) },
                                    user: try user.map { try directory.write("home/porthole/porthole.conf", $0) } ?? directory.path + "/home/none.conf",
                                    system: try system.map { try directory.write("etc/porthole.conf", $0) } ?? directory.path + "/etc/none.conf",
                                    bundled: try directory.write("share/porthole.conf", "[Sites]\nBundled=bundled.example\n"))
        return (ConfigLoader.load(sources: sources, overrides: overrides, validateFilter: standInFilterValidator), sources)
    }

    func testLockedKeysKeepTheSystemValueAndEachAttemptIsOneNotice() throws {
        let (result, sources) = try load(
            system: "[Sites]\nSchool=school.example\n[Policy]\nblock=*\n[Browser]\njavascript=false\n[Locks]\nkeys=Policy/block;Browser/javascript\n",
            user: "[Policy]\nblock=none\nallow=extra.example\n[Browser]\njavascript=true\nzoom=2\n")
        let user = try XCTUnwrap(sources.user), system = try XCTUnwrap(sources.system)
        XCTAssertEqual(result.problems, [])
        let configuration = try XCTUnwrap(result.configuration)
        XCTAssertEqual(configuration.block, ["*"])
        XCTAssertFalse(configuration.browser.javascript)
        XCTAssertEqual(configuration.allow, ["extra.example"], "unlocked keys still come from the user file")
        XCTAssertEqual(configuration.browser.zoom, 2)
        XCTAssertEqual(configuration.sources, [system, user])
        XCTAssertEqual(result.notices.map(\.description), [
            "user file \(user): Policy/block is locked by \(system)",
            "user file \(user): Browser/javascript is locked by \(system)",
        ])
        XCTAssertEqual(result.notices.map(\.line), [2, 5])
    }

    func testLocksBeatCommandLineOverrides() throws {
        let (result, sources) = try load(
            system: "[Sites]\nSchool=school.example\n[Privacy]\nephemeral=false\n[Locks]\nkeys=Privacy/ephemeral;Kiosk\n",
            overrides: [.ephemeral: "true", .kioskEnabled: "true"])
        let system = try XCTUnwrap(sources.system)
        let configuration = try XCTUnwrap(result.configuration)
        XCTAssertFalse(configuration.privacy.ephemeral)
        XCTAssertFalse(configuration.kiosk.enabled, "a locked group is locked at its defaults when the system file leaves it out")
        XCTAssertEqual(result.notices.map(\.description), [
            "command line: Kiosk/enabled is locked by \(system)",
            "command line: Privacy/ephemeral is locked by \(system)",
        ])
    }

    func testUnlockedOverridesApplyOverTheUserFile() throws {
        let (result, _) = try load(system: nil, user: "[Sites]\nHome=home.example\n[Privacy]\nephemeral=false\n",
                                   overrides: [.ephemeral: "true", .kioskEnabled: "true"])
        let configuration = try XCTUnwrap(result.configuration)
        XCTAssertTrue(configuration.privacy.ephemeral)
        XCTAssertTrue(configuration.kiosk.enabled)
        XCTAssertEqual(result.notices, [])
    }

    func testBadOverridesAreProblems() throws {
        let (result, _) = try load(system: nil, user: "[Sites]\nHome=home.example\n",
                                   overrides: [.ephemeral: "yes", ConfigKey(group: "Browser", name: "colour"): "red"])
        XCTAssertEqual(result.problems.map(\.description), [
            "command line: Browser/colour: unknown key",
            "command line: Privacy/ephemeral: expected true or false",
        ])
    }

    func testLockedSitesIgnoreTheUsersSitesWithOneNotice() throws {
        let (result, sources) = try load(
            system: "[Sites]\nSchool=school.example\n[Locks]\nkeys=Sites\n",
            user: "[Sites]\nGames=games.example\nVideos=videos.example\n")
        let user = try XCTUnwrap(sources.user), system = try XCTUnwrap(sources.system)
        XCTAssertEqual(result.configuration?.sites, SiteList([Site(name: "School", address: "school.example")]))
        XCTAssertEqual(result.notices, [ConfigNotice(origin: "user file \(user)", line: 1, message: "Sites is locked by \(system)")])
    }

    func testUsersSitesReplaceTheSystemListWhenNotLocked() throws {
        let (result, _) = try load(system: "[Sites]\nSchool=school.example\n[Browser]\nzoom=1.5\n",
                                   user: "[Sites]\nHome=home.example\n")
        XCTAssertEqual(result.configuration?.sites, SiteList([Site(name: "Home", address: "home.example")]))
        XCTAssertEqual(result.configuration?.browser.zoom, 1.5, "keys the user file leaves out come from the system file")
    }

    func testLocksAreHonouredForTheConfigFileToo() throws {
        let (result, sources) = try load(system: "[Sites]\nSchool=school.example\n[Locks]\nkeys=Browser\n",
                                         user: "[Browser]\nzoom=3\n", commandLine: "[Browser]\nzoom=2\nhttps-only=true\n")
        let given = try XCTUnwrap(sources.commandLine), system = try XCTUnwrap(sources.system)
        XCTAssertEqual(result.configuration?.browser, BrowserSettings())
        XCTAssertEqual(result.configuration?.sources, [system, given], "--config takes the user file's place")
        XCTAssertEqual(result.notices.map(\.description), [
            "--config file \(given): Browser/zoom is locked by \(system)",
            "--config file \(given): Browser/https-only is locked by \(system)",
        ])
    }

    func testLocksInAUserFileAreIgnoredWithANotice() throws {
        let (result, sources) = try load(system: nil, user: "[Sites]\nHome=home.example\n[Locks]\nkeys=Sites\n",
                                         overrides: [.kioskEnabled: "true"])
        let user = try XCTUnwrap(sources.user)
        XCTAssertEqual(result.problems, [])
        XCTAssertTrue(result.configuration?.kiosk.enabled == true)
        XCTAssertEqual(result.notices.map(\.description),
                       ["user file \(user): [Locks] is ignored: only the system file /etc/porthole/porthole.conf and /etc/porthole/porthole.conf.d can lock keys"])
    }

    func testLocksInTheBundledDefaultAreIgnoredToo() throws {
        let bundled = try directory.write("share/porthole.conf", "[Sites]\nHome=home.example\n[Locks]\nkeys=Privacy\n")
        let result = ConfigLoader.load(sources: ConfigSources(bundled: bundled), overrides: [.ephemeral: "true"],
                                       validateFilter: standInFilterValidator)
        XCTAssertTrue(result.configuration?.privacy.ephemeral == true)
        XCTAssertEqual(result.notices.map(\.description),
                       ["bundled file \(bundled): [Locks] is ignored: only the system file /etc/porthole/porthole.conf and /etc/porthole/porthole.conf.d can lock keys"])
    }

    func testAnInvalidAttemptOnALockedKeyIsBothAProblemAndANotice() throws {
        let (result, sources) = try load(system: "[Sites]\nSchool=school.example\n[Locks]\nkeys=Browser/zoom\n",
                                         user: "[Browser]\nzoom=big\n")
        let user = try XCTUnwrap(sources.user)
        XCTAssertEqual(result.problems.map(\.description), ["\(user):2: Browser/zoom: expected a number, like 1.25"])
        XCTAssertEqual(result.notices.count, 1)
    }

    func testAnUnreadableSystemFileLetsNothingOverrideIt() throws {
        let (result, sources) = try load(system: "[Sites]\nSchool=school.example\njunk\n",
                                         user: "[Sites]\nGames=games.example\n[Kiosk]\nenabled=true\n")
        let system = try XCTUnwrap(sources.system)
        XCTAssertEqual(result.problems.map(\.file), [system])
        XCTAssertEqual(result.problems.first?.line, 3)
        XCTAssertNil(result.configuration)
        XCTAssertEqual(result.effectiveConfiguration, Configuration.failClosed())
    }

    func testLockedSitesMissingFromTheSystemFileIsAProblemThere() throws {
        let (result, sources) = try load(system: "[Locks]\nkeys=Sites\n", user: "[Sites]\nGames=games.example\n")
        let system = try XCTUnwrap(sources.system)
        XCTAssertEqual(result.problems.map(\.description),
                       ["\(system):0: [Sites]: no approved sites: add a [Sites] group with at least one site, like Example=example.com"])
        XCTAssertEqual(result.notices.count, 1)
    }
}
