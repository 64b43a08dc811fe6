// `[Policy] chrome-policies=DIR`: a Chrome policy folder read as Chromium reads it (every file, the
// last one wins per policy, comments and trailing commas, broken files skipped), its URL lists
// joining [Policy] and its other policies mapped where Porthole has the setting.
import XCTest
@testable import PortholeCore

final class ConfigChromePolicyTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    private var managed: String { directory.path + "/chrome/managed" }

    private func load(policy: String = "", files: [String: String], createFolder: Bool = false) throws -> ConfigLoadResult {
        if createFolder { try FileManager.default.createDirectory(atPath: managed, withIntermediateDirectories: true) }
        for (name, text) in files { _ = try directory.write("chrome/managed/" + name, text) }
        let file = try directory.write("porthole.conf", "[Sites]\nSchool=school.example\n[Policy]\nchrome-policies=\(managed)\n" + policy)
        return ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: URLFilter.validator)
    }

    func testChromeListsJoinThePolicyFromEveryJSONFile() throws {
        let result = try load(policy: "allow=wikipedia.org\n", files: [
            "10-allow.json": #"{"URLAllowlist": ["example.org", "https://docs.example.com/guide"], "HomepageLocation": "https://x/"}"#,
            "20-block.json": #"{"URLBlocklist": ["*", "ads.example.org"]}"#,
            "old-names.json": #"{"URLWhitelist": ["legacy.example"], "URLBlacklist": ["javascript://*"]}"#,
        ])
        XCTAssertEqual(result.problems, [])
        let configuration = try XCTUnwrap(result.configuration)
        // The old names count only where the new name is not set (Chrome's rule).
        XCTAssertEqual(configuration.allow, ["wikipedia.org", "example.org", "https://docs.example.com/guide"])
        XCTAssertEqual(configuration.block, ["*", "ads.example.org"])
        XCTAssertEqual(Array(result.sources.dropFirst()), [managed + "/10-allow.json", managed + "/20-block.json", managed + "/old-names.json"])
        let policy = SitePolicy(configuration: configuration)
        XCTAssertTrue(policy.isAllowed("https://docs.example.com/guide/page"))
        XCTAssertFalse(policy.isAllowed("https://legacy.example/"))
        try FileManager.default.removeItem(atPath: managed)
        let legacy = try load(files: ["old-names.json": #"{"URLWhitelist": ["only.example"]}"#])
        XCTAssertEqual(legacy.configuration?.allow, ["only.example"])
        XCTAssertFalse(policy.isAllowed("https://ads.example.org/"))
        XCTAssertFalse(policy.isAllowed("https://elsewhere.example/"))
    }

    func testBadPolicyFilesAreProblemsAtLineAndColumnAndFailClosed() throws {
        let rows: [(String, String, String)] = [
            ("list is a string", "{\n  \"URLAllowlist\": \"example.org\"\n}\n", "F:2:3: URLAllowlist: expected a list of URL filters, like [\"example.com\"]"),
            ("entry not a string", "{\"URLBlocklist\": [\"*\", 7]}", "F:1:24: URLBlocklist: entry 2 is not a string"),
            ("invalid filter", "{\n  \"URLAllowlist\": [\n    \"example.org\",\n    \"http://exa mple.org/\"\n  ]\n}\n",
             "F:4:5: URLAllowlist: \"http://exa mple.org/\" is not a valid filter: "),
            ("a name one edit from a policy", "{\"URLBlocklist\": [\"*\"], \"URLBlocklst\": [\"x.example\"]}",
             "F:1:25: URLBlocklst: unknown policy (did you mean URLBlocklist?)"),
            ("a name in another case", "{\"URLBlocklist\": [\"*\"], \"urlallowlist\": [\"x.example\"]}",
             "F:1:25: urlallowlist: unknown policy (did you mean URLAllowlist?)"),
            ("a policy twice in one file", "{\"URLBlocklist\": [\"*\"],\n \"URLBlocklist\": []}", "F:2:2: URLBlocklist: set more than once (first on line 1)"),
            ("a list that is an object", "{\"URLBlocklist\": {\"a\": \"*\"}}", "F:1:2: URLBlocklist: expected a list of URL filters"),
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

    /// Chromium's loader reads comments and trailing commas (JSON_ALLOW_TRAILING_COMMAS), and the
    /// filters it accepts that mean nothing here are left out with a notice, not refused.
    func testFilesChromeAcceptsAreAccepted() throws {
        let result = try load(files: ["kiosk.json": """
            // The kiosk's lists
            {
              /* allowed */ "URLAllowlist": ["example.org", "chrome://newtab", "*.facebook.com",],
              "URLBlocklist": ["*", "CHROME://settings"],
            }
            """])
        XCTAssertEqual(result.problems, [])
        let configuration = try XCTUnwrap(result.configuration)
        XCTAssertEqual(configuration.allow, ["example.org"])
        XCTAssertEqual(configuration.block, ["*"])
        let notices = result.notices.map(\.description).joined(separator: "\n")
        XCTAssertTrue(notices.contains(managed + "/kiosk.json:3:49: URLAllowlist: \"chrome://newtab\" is left out"), notices)
        XCTAssertTrue(notices.contains(managed + "/kiosk.json:3:68: URLAllowlist: \"*.facebook.com\" is left out: Chrome reads *. as a host"), notices)
        let policy = SitePolicy(configuration: configuration)
        XCTAssertFalse(policy.isAllowed("https://www.facebook.com/"), "never wider than Chrome")
        XCTAssertFalse(policy.isAllowed("https://facebook.com/"))
        XCTAssertFalse(policy.isAllowed("http://*.facebook.com/"), "a literal * host stays blocked")
        XCTAssertFalse(policy.isAllowed("chrome://newtab/"))
    }

    /// config_dir_policy_loader.cc: every file, sorted, the last one wins policy by policy; a file
    /// that does not parse is skipped with a warning.
    func testLaterFileWinsPerPolicyAndBrokenFilesAreSkipped() throws {
        let result = try load(files: [
            "10-base.json": #"{"URLBlocklist": ["*"], "URLAllowlist": ["old.example"]}"#,
            "20-override.json": #"{"URLAllowlist": ["new.example"]}"#,
            "30-broken.json": "{\"URLAllowlist\": ['evil.example']}",
            "notes": #"{"PrintingEnabled": true}"#,
        ])
        XCTAssertEqual(result.problems, [])
        let configuration = try XCTUnwrap(result.configuration)
        XCTAssertEqual(configuration.allow, ["new.example"])
        XCTAssertEqual(configuration.block, ["*"])
        XCTAssertTrue(configuration.kiosk.printing, "a file without .json is read, as Chrome reads it")
        let notices = result.notices.map(\.description).joined(separator: "\n")
        XCTAssertTrue(notices.contains(managed + "/30-broken.json:1:19: skipped, as Chrome skips it: not valid JSON: strings are written in double quotes"), notices)
        XCTAssertTrue(notices.contains(managed + "/20-override.json:1:2: URLAllowlist replaces the value in " + managed + "/10-base.json"), notices)
        XCTAssertTrue(notices.contains(managed + "/notes: read as a policy file"), notices)
    }

    func testAFolderWithNothingReadableFailsClosed() throws {
        for files in [["a.json": "{\"URLBlocklist\": [\"*\"]"], ["b.json": "[1]"]] {
            let result = try load(files: files)
            XCTAssertEqual(result.problems.map(\.description), [managed + ":0: Policy/chrome-policies: no file in the Chrome policy folder could be read as policies"])
            XCTAssertNil(result.configuration)
            try FileManager.default.removeItem(atPath: managed + "/" + files.keys.first!)
        }
        let empty = try load(files: [:], createFolder: true)
        XCTAssertEqual(empty.problems.map(\.description), [managed + ":0: Policy/chrome-policies: the Chrome policy folder has no policy files"])
    }

    /// The crash: 100,000 nested lists overflowed the stack in JSON-GLib (SIGSEGV at start and on
    /// SIGHUP). Chromium refuses more than 199 levels (base/json/json_common.h kAbsoluteMaxDepth).
    func testDeeplyNestedJSONIsRefusedNotACrash() throws {
        let depth = 100_000
        let text = #"{"URLBlocklist":["*"],"X":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        XCTAssertThrowsError(try JSONReader.parse(Array(text.utf8)))
        let result = try load(files: ["p.json": text])
        XCTAssertNil(result.configuration)
        XCTAssertTrue(result.notices.contains { $0.description.contains("nested too deeply") }, "\(result.notices)")
        let deepest = String(repeating: "[", count: 199) + String(repeating: "]", count: 199)
        XCTAssertNoThrow(try JSONReader.parse(Array(deepest.utf8)), "199 levels, as Chromium")
        XCTAssertThrowsError(try JSONReader.parse(Array(("[" + deepest + "]").utf8)))
    }

    /// `\u0000` cut a value short in JSON-GLib: "evil.example\u0000.wikipedia.org" allowed evil.example.
    func testStrictJSONRefusesWhatChromeRefuses() throws {
        let rows: [(String, String)] = [
            (#"{"URLAllowlist": ["evil.example\u0000.wikipedia.org"]}"#, "NUL"),
            (#"{'URLAllowlist': ['evil.example']}"#, "single quotes"),
            (#"{"URLAllowlist": ["evil.example"]} {"URLBlocklist": []}"#, "after the end"),
            (#"{"IdleTimeout": 1e999}"#, "out of range"),
            ("{\"URLAllowlist\": [\"a\u{1}b\"]}", "control character"),
            (#"{"URLAllowlist": [,]}"#, "unexpected character"),
            (#"{"URLAllowlist": ["\ud800"]}"#, "surrogate"),
            ("{\"URLAllowlist\": [\"\u{FF}\"]}".replacingOccurrences(of: "\u{FF}", with: "\u{FFFD}"), ""),
        ]
        for (text, reason) in rows where !reason.isEmpty {
            XCTAssertThrowsError(try JSONReader.parse(Array(text.utf8)), reason) { error in
                XCTAssertTrue((error as? JSONSyntaxError)?.message.contains(reason) == true, "\(reason): \(error)")
            }
        }
        var invalid = Array(#"{"URLAllowlist": [""#.utf8)
        invalid += [0xFF, UInt8(ascii: "\""), UInt8(ascii: "]"), UInt8(ascii: "}")]
        XCTAssertThrowsError(try JSONReader.parse(invalid), "invalid UTF-8")
        let result = try load(files: ["a.json": #"{"URLBlocklist": ["*"]}"#, "b.json": #"{"URLAllowlist": ["evil.example\u0000.wikipedia.org"]}"#])
        let configuration = try XCTUnwrap(result.configuration)
        XCTAssertFalse(SitePolicy(configuration: configuration).isAllowed("https://evil.example/"))
        XCTAssertTrue(result.notices.contains { $0.description.hasPrefix(managed + "/b.json:1:32: skipped") }, "\(result.notices)")
    }

    /// The policies with a Porthole meaning set Porthole's keys; every other policy is a notice.
    func testChromePoliciesWithAPortholeMeaningAreMapped() throws {
        let file = try directory.write("porthole.conf", "[Policy]\nchrome-policies=\(managed)\n")
        _ = try directory.write("chrome/managed/kiosk.json", """
            {
              "URLBlocklist": ["*"],
              "URLAllowlist": ["school.example"],
              "HomepageLocation": "https://school.example/start",
              "RestoreOnStartup": 4,
              "RestoreOnStartupURLs": ["https://school.example/news", "https://blocked.example/"],
              "PrintingEnabled": true,
              "ProxyMode": "fixed_servers",
              "ProxyServer": "proxy.school.example:3128",
              "ProxyBypassList": "intranet.example, 10.0.0.0/8",
              "DownloadRestrictions": 0,
              "IncognitoModeAvailability": 2,
              "DefaultJavaScriptSetting": 2,
              "DefaultGeolocationSetting": 1,
              "BookmarkBarEnabled": false
            }
            """)
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: URLFilter.validator)
        XCTAssertEqual(result.problems, [])
        let configuration = try XCTUnwrap(result.configuration)
        XCTAssertEqual(configuration.sites.sites.map(\.address), ["https://school.example/start", "https://school.example/news"])
        XCTAssertTrue(configuration.kiosk.printing)
        XCTAssertEqual(configuration.network.proxy, "http://proxy.school.example:3128")
        XCTAssertEqual(configuration.network.proxyIgnore, ["intranet.example", "10.0.0.0/8"])
        XCTAssertTrue(configuration.privacy.ephemeral)
        XCTAssertFalse(configuration.browser.javascript)
        XCTAssertEqual(configuration.privacy.grants, [])
        let notices = result.notices.map(\.description).joined(separator: "\n")
        let json = managed + "/kiosk.json"
        XCTAssertTrue(notices.contains(json + ":15:3: BookmarkBarEnabled: ignored: not a Porthole setting"), notices)
        XCTAssertTrue(notices.contains(json + ":11:3: DownloadRestrictions: DownloadRestrictions is not applied"), notices)
        XCTAssertTrue(notices.contains(json + ":14:3: DefaultGeolocationSetting: DefaultGeolocationSetting=1 (allow) is not applied"), notices)
        XCTAssertTrue(notices.contains("RestoreOnStartupURLs \"https://blocked.example/\" is not a site: the URL lists block it"), notices)
    }

    /// A folder the user names cannot lift the admin's locks.
    func testChromePoliciesFromTheUserFileKeepTheLocks() throws {
        let system = try directory.write("system.conf", "[Sites]\nSchool=school.example\n[Kiosk]\nprinting=false\n[Locks]\nkeys=Kiosk/printing\n")
        let user = try directory.write("user.conf", "[Policy]\nchrome-policies=\(managed)\n")
        _ = try directory.write("chrome/managed/p.json", #"{"PrintingEnabled": true}"#)
        let result = ConfigLoader.load(sources: ConfigSources(user: user, system: system), validateFilter: URLFilter.validator)
        XCTAssertEqual(result.problems, [])
        XCTAssertFalse(try XCTUnwrap(result.configuration).kiosk.printing)
        XCTAssertTrue(result.notices.contains { $0.description.contains("PrintingEnabled (Kiosk/printing) is locked by \(system)") }, "\(result.notices)")
    }

    func testUnsupportedProxyModesFailClosed() throws {
        for mode in [#""pac_script""#, #""auto_detect""#] {
            let result = try load(files: ["p.json": #"{"URLBlocklist": ["*"], "ProxyMode": "# + mode + #", "ProxyPacUrl": "http://wpad/x.pac"}"#])
            XCTAssertEqual(result.problems.count, 1, "\(result.problems)")
            XCTAssertTrue(result.problems.first?.description.contains("cannot use a PAC script") == true, "\(result.problems)")
            try FileManager.default.removeItem(atPath: managed + "/p.json")
        }
    }

    func testMissingPolicyFolderIsAProblem() throws {
        let result = try load(files: [:])
        XCTAssertEqual(result.problems.count, 1)
        XCTAssertTrue(result.problems.first?.description.hasPrefix("\(managed):0: Policy/chrome-policies: cannot read the Chrome policy folder") == true,
                      "\(result.problems)")
        XCTAssertNil(result.configuration)
    }
}
