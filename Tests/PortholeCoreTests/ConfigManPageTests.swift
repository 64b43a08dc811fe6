// porthole.conf(5) cannot drift from the keys the loader reads: the committed page is the one
// generated from ConfigSchema, and every key has its words.
import XCTest
@testable import PortholeCore

final class ConfigManPageTests: XCTestCase {
    private let page = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/porthole.conf.5").path

    func testTheCommittedManPageIsTheGeneratedOne() throws {
        let committed = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(committed == ConfigManPage.render(),
                      "Resources/porthole.conf.5 differs from what the configuration schema generates: run `make man` and commit the result")
    }

    func testEveryGroupAndKeyIsDocumented() {
        for group in ConfigSchema.groups {
            XCTAssertNotNil(ConfigReference.groups[group], "[\(group)] has no introduction: add one to ConfigReference.groups, then run `make man`")
            for name in ConfigSchema.keys(in: group) where group != ConfigSchema.sites {
                XCTAssertNotNil(ConfigReference.keys[ConfigKey(group: group, name: name)],
                                "\(group)/\(name) is not documented: add it to ConfigReference.keys, then run `make man`")
            }
        }
        XCTAssertFalse(ConfigManPage.render().contains(ConfigManPage.undocumented))
    }

    func testRoffControlCharactersAreEscaped() {
        XCTAssertEqual(ConfigManPage.escape("a-b \\; c\n.not a request\n'nor this"), "a\\-b \\e; c\n\\&.not a request\n\\&'nor this")
    }

    /// man-pages(7): `.TH title section date source manual`; an empty date printed a blank footer.
    func testTitleLineNamesTheDateAndTheRelease() throws {
        let line = try XCTUnwrap(ConfigManPage.render().split(separator: "\n").first { $0.hasPrefix(".TH ") })
        XCTAssertEqual(String(line), ".TH PORTHOLE.CONF 5 \"\(ConfigManPage.date)\" \"Porthole \(AboutPorthole.version)\" \"File Formats\"")
        XCTAssertFalse(ConfigManPage.date.isEmpty)
        let manual = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/porthole.1").path, encoding: .utf8)
        XCTAssertTrue(manual.hasPrefix(".TH PORTHOLE 1 \"\(ConfigManPage.date)\" \"Porthole \(AboutPorthole.version)\""), "porthole(1) agrees")
    }
}
