// `[Policy] chrome-policies=DIR`: Chrome's URLAllowlist/URLBlocklist (and the old names) from every
// *.json in DIR join [Policy]; bad JSON and bad filters are problems at line:column, failing closed.
import XCTest
@testable import PortholeCore

final class ConfigChromePolicyTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    private var managed: String { directory.path + "/chrome/managed" }

    private func load(policy: String = "", files: [String: String]) throws -> ConfigLoadResult {
        for (name, text) in files { _ = try directory.write("chrome/managed/" + name, text) }
        let file = try directory.write("porthole.conf", "[Sites]\nSchool=school.example\n[Policy]\nchrome-policies=\(managed)\n" + policy)
        return ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: URLFilter.validator)
    }

    func testChromeListsJoinThePolicyFromEveryJSONFile() throws {
        let result = try load(policy: "allow=wikipedia.org\n", files: [
            "10-allow.json": #"{"URLAllowlist": ["example.org", "https://docs.example.com/guide"], "HomepageLocation": "https://x/"}"#,
            "20-block.json": #"{"URLBlocklist": ["*", "ads.example.org"]}"#,
            "old-names.json": #"{"URLWhitelist": ["legacy.example"], "URLBlacklist": ["javascript://*"]}"#,
            "notes.txt": "not JSON, not read",
        ])
        XCTAssertEqual(result.problems, [])
        let configuration = try XCTUnwrap(result.configuration)
        XCTAssertEqual(configuration.allow, ["wikipedia.org", "example.org", "https://docs.example.com/guide", "legacy.example"])
        XCTAssertEqual(configuration.block, ["*", "ads.example.org", "javascript://*"])
        XCTAssertEqual(Array(result.sources.dropFirst()), [managed + "/10-allow.json", managed + "/20-block.json", managed + "/old-names.json"])
        let policy = SitePolicy(configuration: configuration)
        XCTAssertTrue(policy.isAllowed("https://docs.example.com/guide/page"))
        XCTAssertTrue(policy.isAllowed("https://legacy.example/"))
        XCTAssertFalse(policy.isAllowed("https://ads.example.org/"))
        XCTAssertFalse(policy.isAllowed("https://elsewhere.example/"))
    }

    func testBadPolicyFilesAreProblemsAtLineAndColumnAndFailClosed() throws {
        let rows: [(String, String, String)] = [
            ("truncated JSON", "{\n  \"URLBlocklist\": [\"*\"\n", "F:2:22: not valid JSON: unexpected string constant"),
            ("not an object", "[\"*\"]\n", "F:1:1: expected a JSON object of policies, like {\"URLBlocklist\": [\"*\"]}"),
            ("list is a string", "{\n  \"URLAllowlist\": \"example.org\"\n}\n", "F:2:3: URLAllowlist: expected a list of URL filters, like [\"example.com\"]"),
            ("entry not a string", "{\"URLBlocklist\": [\"*\", 7]}", "F:1:2: URLBlocklist: entry 2 is not a string"),
            ("invalid filter", "{\n  \"URLAllowlist\": [\n    \"example.org\",\n    \"http://exa mple.org/\"\n  ]\n}\n",
             "F:4:5: URLAllowlist: \"http://exa mple.org/\" is not a valid filter: "),
        ]
        for (name, text, expected) in rows {
            let result = try load(files: ["policy.json": text])
            let problems = result.problems.map { $0.description.replacingOccurrences(of: managed + "/policy.json", with: "F") }
            XCTAssertEqual(problems.count, 1, "\(name): \(problems)")
            XCTAssertTrue(problems.first?.hasPrefix(expected) == true, "\(name): \(problems)")
            XCTAssertNil(result.configuration, name)
            XCTAssertEqual(result.effectiveConfiguration.allow, [], "\(name): fails closed")
            try FileManager.default.removeItem(atPath: managed + "/policy.json")
        }
    }

    func testMissingPolicyFolderIsAProblem() throws {
        let result = try load(files: [:])
        XCTAssertEqual(result.problems.count, 1)
        XCTAssertTrue(result.problems.first?.description.hasPrefix("\(managed): Policy/chrome-policies: cannot read the Chrome policy folder") == true,
                      "\(result.problems)")
        XCTAssertNil(result.configuration)
    }
}
