// The shipped Resources/porthole.conf and porthole.conf.example load with no problems.
import XCTest
@testable import PortholeCore

final class ConfigBundledFilesTests: XCTestCase {
    /// `Resources/` of this checkout, found from this file's path.
    private let resources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources").path

    func testTheBundledDefaultHasTheSeedsSites() throws {
        let bundled = resources + "/" + DataDirectory.defaultConfigName
        let result = ConfigLoader.load(sources: ConfigSources(bundled: bundled), validateFilter: standInFilterValidator)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.notices, [])
        XCTAssertEqual(result.configuration, Configuration(sites: SiteList([
            Site(name: "Start page", address: "porthole://start/"),
            Site(name: "Apple", address: "apple.com"),
            Site(name: "Hacking with Swift", address: "hackingwithswift.com"),
        ]), sources: [bundled]))
    }

    func testTheExampleValidatesAndStatesTheDefaults() throws {
        let example = resources + "/porthole.conf.example"
        // As a system file, where its [Locks] group belongs.
        let result = ConfigLoader.load(sources: ConfigSources(system: example), validateFilter: standInFilterValidator)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.notices, [])
        let configuration = try XCTUnwrap(result.configuration)
        let defaults = Configuration()
        XCTAssertEqual(configuration.block, defaults.block)
        XCTAssertEqual(configuration.browser, defaults.browser)
        XCTAssertEqual(configuration.privacy, defaults.privacy)
        XCTAssertEqual(configuration.kiosk, defaults.kiosk)
    }

    /// The header lists every place Porthole reads, the drop-in directory included, where a fleet
    /// tool puts its files.
    func testTheExampleHeaderNamesEveryPlacePortholeReads() throws {
        let text = try String(contentsOfFile: resources + "/porthole.conf.example", encoding: .utf8)
        let header = text.prefix { _ in true }.split(separator: "\n").prefix { $0.hasPrefix("#") }.joined(separator: "\n")
        for place in [ConfigSources.systemDropInPath + "/*.conf", "/etc/porthole/porthole.conf", "--config FILE",
                      "$XDG_CONFIG_HOME/porthole/porthole.conf"] {
            XCTAssertTrue(header.contains(place), place)
        }
    }

    func testTheExampleMentionsEveryGroupAndKey() throws {
        let text = try String(contentsOfFile: resources + "/porthole.conf.example", encoding: .utf8)
        for group in ConfigSchema.groups {
            XCTAssertTrue(text.contains("\n[\(group)]\n"), group)
            for key in ConfigSchema.keys(in: group) {
                XCTAssertTrue(text.contains("\n\(key)="), "\(group)/\(key)")
            }
        }
    }

    func testTheReadmeDocumentsEveryKey() throws {
        let readme = resources + "/../README.md"
        let text = try String(contentsOfFile: readme, encoding: .utf8)
        for setting in ConfigSchema.settings {
            XCTAssertTrue(text.contains("`\(setting.key.name)`"), "\(setting.key)")
        }
    }
}
