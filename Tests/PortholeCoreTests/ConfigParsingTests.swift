// Config files good and bad, one row a case, with the exact `file:line: key: message` reported.
import XCTest
@testable import PortholeCore

final class ConfigParsingTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    /// Loads `text` as `--config FILE` on a machine without a system file; `F` in the expected
    /// problems stands for the file's path.
    private func problems(_ text: String) throws -> [String] {
        let file = try directory.write("porthole.conf", text)
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
        return result.problems.map { $0.description.replacingOccurrences(of: file, with: "F") }
    }

    func testGoodFilesHaveNoProblems() throws {
        let rows: [(String, String)] = [
            ("one bare host", "[Sites]\nHome=example.com\n"),
            ("URLs, IP literals, internationalised names",
             "[Sites]\nStart page=porthole://start/\nDocs=https://www.example.org/docs/?q=1\nLocal=http://127.0.0.1:8080/\n"
             + "Six=[2001:db8::1]\nSix URL=http://[2001:db8::2]/\nBooks=bücher.de\nUpper=EXAMPLE.NET\n"),
            ("spaces around keys and values, CRLF, comments",
             "# comment\r\n[Sites]\r\n  Home = example.com  \r\n\r\n[Browser]\r\nzoom = 1.5 \r\n"),
            ("every key", everyKeyFile),
            ("lists with spaces and a trailing separator", "[Sites]\nA=a.example\n[Policy]\nallow= b.example ; c.example;\n"),
            ("empty optional values", "[Sites]\nA=a.example\n[Kiosk]\nexit-pin-hash=\nexit-chord=\nshortcuts=\n"),
            ("booleans as 1 and 0", "[Sites]\nA=a.example\n[Browser]\njavascript=0\nhttps-only=1\n"),
        ]
        for (name, text) in rows {
            XCTAssertEqual(try problems(text), [], name)
        }
    }

    func testBadFilesReportEachProblemWhereItIs() throws {
        let sites = "[Sites]\nA=a.example\n"
        let rows: [(String, String, [String])] = [
            // Types and ranges.
            ("boolean", sites + "[Browser]\njavascript=maybe\n", ["F:4: Browser/javascript: expected true or false"]),
            ("boolean case", sites + "[Kiosk]\nenabled=True\n", ["F:4: Kiosk/enabled: expected true or false"]),
            ("number", sites + "[Browser]\nzoom=1,5\n", ["F:4: Browser/zoom: expected a number, like 1.25"]),
            ("zoom too small", sites + "[Browser]\nzoom=0.1\n", ["F:4: Browser/zoom: out of range: expected 0.25 to 5.0"]),
            ("zoom too large", sites + "[Browser]\nzoom=9\n", ["F:4: Browser/zoom: out of range: expected 0.25 to 5.0"]),
            ("zoom not a number", sites + "[Browser]\nzoom=nan\n", ["F:4: Browser/zoom: out of range: expected 0.25 to 5.0"]),
            ("seconds", sites + "[Kiosk]\nidle-timeout=5m\n", ["F:4: Kiosk/idle-timeout: expected a whole number of seconds"]),
            ("negative seconds", sites + "[Kiosk]\nreload-every=-5\n", ["F:4: Kiosk/reload-every: out of range: expected 0 or more"]),
            ("control characters", sites + "[Browser]\nuser-agent-suffix=Porthole\\tKiosk\n",
             ["F:4: Browser/user-agent-suffix: must not contain control characters"]),
            ("bad escape", sites + "[Browser]\nuser-agent-suffix=a\\qb\n",
             ["F:4: Browser/user-agent-suffix: invalid escape sequence: use \\s, \\n, \\t, \\r, \\\\, and \\; in lists"]),
            ("bad escape in a list", sites + "[Policy]\nallow=a.example;b\\qc\n", ["F:4: Policy/allow: invalid escape sequence: use \\s, \\n, \\t, \\r, \\\\, and \\; in lists"]),
            ("TLS exception host", sites + "[Browser]\ntls-exceptions=ok.example;*.example.org\n",
             ["F:4: Browser/tls-exceptions: \"*.example.org\" is not a host name or IP address"]),

            // Groups and keys.
            ("unknown group", sites + "[Browsr]\nzoom=1\n", ["F:3: [Browsr]: unknown group (did you mean [Browser]?)"]),
            ("unknown group, nothing close", sites + "[Extras]\nx=1\n", ["F:3: [Extras]: unknown group"]),
            ("group in another case", sites + "[browser]\nzoom=1\n", ["F:3: [browser]: unknown group (did you mean [Browser]?)"]),
            ("unknown key", sites + "[Browser]\njavascrip=true\n", ["F:4: Browser/javascrip: unknown key (did you mean javascript?)"]),
            ("unknown key, nothing close", sites + "[Kiosk]\nwallpaper=blue\n", ["F:4: Kiosk/wallpaper: unknown key"]),
            ("key set twice", sites + "[Browser]\nzoom=1.5\njavascript=true\nzoom=2\n",
             ["F:6: Browser/zoom: set more than once (first on line 4)"]),
            ("bad value set twice points at the value used", sites + "[Browser]\nzoom=1\nzoom=7\n",
             ["F:5: Browser/zoom: out of range: expected 0.25 to 5.0", "F:5: Browser/zoom: set more than once (first on line 4)"]),
            ("key set three times points each repeat at the first", sites + "[Browser]\nzoom=1\nzoom=1.5\nzoom=2\n",
             ["F:5: Browser/zoom: set more than once (first on line 4)", "F:6: Browser/zoom: set more than once (first on line 4)"]),

            // Sites.
            ("no [Sites]", "[Browser]\nzoom=1\n",
             ["F:0: [Sites]: no approved sites: add a [Sites] group with at least one site, like Example=example.com"]),
            ("empty file", "", ["F:0: [Sites]: no approved sites: add a [Sites] group with at least one site, like Example=example.com"]),
            ("[Locks] outside the system file is only a notice, repeated keys there too", sites + "[Locks]\nkeys=A\nkeys=B\n", []),
            ("empty [Sites]", "# nothing\n[Sites]\n[Browser]\n", ["F:2: [Sites]: no sites: list at least one, like Example=example.com"]),
            ("host with a path", "[Sites]\nApple=apple.com/mac\n",
             ["F:2: Sites/Apple: \"apple.com/mac\" is not a host name or IP address; write a URL with its scheme, like https://apple.com/mac"]),
            ("wildcard host", "[Sites]\nAll=*.example.com\n",
             ["F:2: Sites/All: \"*.example.com\" is not a host name or IP address; write a URL with its scheme, like https://*.example.com"]),
            ("numeric name that is no IPv4 address", "[Sites]\nOdd=300.1.1.1\n",
             ["F:2: Sites/Odd: \"300.1.1.1\" is not a host name or IP address; write a URL with its scheme, like https://300.1.1.1"]),
            ("label too long", "[Sites]\nLong=\(String(repeating: "a", count: 64)).example\n",
             ["F:2: Sites/Long: \"\(String(repeating: "a", count: 64)).example\" is not a host name or IP address; write a URL with its scheme, like https://\(String(repeating: "a", count: 64)).example"]),
            ("empty address", "[Sites]\nNothing=\n",
             ["F:2: Sites/Nothing: no address: write a host like example.com or a URL like https://example.com/"]),
            ("URL that does not parse", "[Sites]\nBad=https://example.com/%zz\n",
             ["F:2: Sites/Bad: \"https://example.com/%zz\" is not a valid URL: Invalid %-encoding in URI"]),
            ("URL with a bad host", "[Sites]\nBad=https://exa mple.com/\n",
             ["F:2: Sites/Bad: \"https://exa mple.com/\" has an invalid host \"exa mple.com\""]),
            ("URL without a host", "[Sites]\nBad=https:///path\n", ["F:2: Sites/Bad: \"https:///path\" has no host"]),
            ("unsupported scheme", "[Sites]\nFiles=ftp://ftp.example.com/\n",
             ["F:2: Sites/Files: \"ftp://ftp.example.com/\" has the unsupported scheme ftp: use http, https, porthole"]),
            ("host and port without a scheme", "[Sites]\nDev=localhost:8080\n",
             ["F:2: Sites/Dev: \"localhost:8080\" has the unsupported scheme localhost: use http, https, porthole"]),
            ("same name twice", "[Sites]\nApple=apple.com\nSwift=swift.org\nApple=https://www.apple.com/uk/\n",
             ["F:4: Sites/Apple: duplicate site name (first on line 2)"]),
            ("same name in a second [Sites]", "[Sites]\nApple=apple.com\n[Browser]\nzoom=1\n[Sites]\nApple=apple.com\n",
             ["F:6: Sites/Apple: duplicate site name (first on line 2)"]),
            ("same address twice", "[Sites]\nApple=apple.com\nApple again=https://APPLE.com\n",
             ["F:3: Sites/Apple again: duplicate site: same address as Apple (line 2)"]),
            ("repeats deep in a long site list", "[Sites]\n" + (1...3000).map { "Site \($0)=site\($0).example\n" }.joined()
                + "Site 1500=other.example\nLast=HTTPS://SITE2999.example/\n",
             ["F:3002: Sites/Site 1500: duplicate site name (first on line 1501)",
              "F:3003: Sites/Last: duplicate site: same address as Site 2999 (line 3000)"]),

            // Policy filters, through the injected validator.
            ("invalid filters", sites + "[Policy]\nallow=good.example;bad filter\nblock=*;example.com:0\n",
             ["F:4: Policy/allow: \"bad filter\" is not a valid filter: contains a space",
              "F:5: Policy/block: \"example.com:0\" is not a valid filter: port 0"]),

            // Privacy.
            ("unknown permission", sites + "[Privacy]\npermissions=maps.example:geolocation;meet.example:webcam\n",
             ["F:4: Privacy/permissions: \"meet.example:webcam\": unknown permission \"webcam\": expected one of "
              + "geolocation, notifications, camera, microphone, pointer-lock, clipboard, media-keys"]),
            ("grant without permission", sites + "[Privacy]\npermissions=camera\n",
             ["F:4: Privacy/permissions: \"camera\" is not a grant: expected host:permission, like maps.example.com:geolocation, or deny-all"]),
            ("grant to a bad host", sites + "[Privacy]\npermissions=*.example:camera\n",
             ["F:4: Privacy/permissions: \"*.example:camera\": \"*.example\" is not a host name or IP address"]),
            ("deny-all with grants", sites + "[Privacy]\npermissions=deny-all;meet.example:camera\n",
             ["F:4: Privacy/permissions: deny-all cannot be combined with grants"]),
            ("international grant with a bad permission", sites + "[Privacy]\npermissions=bücher.example:camera;bücher.example:webcam\n",
             ["F:4: Privacy/permissions: \"bücher.example:webcam\": unknown permission \"webcam\": expected one of "
              + "geolocation, notifications, camera, microphone, pointer-lock, clipboard, media-keys"]),

            // Kiosk.
            ("unknown shortcut", sites + "[Kiosk]\nshortcuts=back;fly\n",
             ["F:4: Kiosk/shortcuts: unknown shortcut \"fly\": expected one of back, forward, reload, stop, home, zoom, find"]),
            ("PIN hash format", sites + "[Kiosk]\nexit-pin-hash=md5:00:11\n",
             ["F:4: Kiosk/exit-pin-hash: expected a hash printed by porthole --hash-pin, like $y$j9T$…, or the old sha256:SALT_HEX:HASH_HEX"]),
            ("PIN hash too short", sites + "[Kiosk]\nexit-pin-hash=sha256:00ff:abcd\n",
             ["F:4: Kiosk/exit-pin-hash: expected a hash printed by porthole --hash-pin, like $y$j9T$…, or the old sha256:SALT_HEX:HASH_HEX"]),
            ("site menu neither auto nor boolean", sites + "[Kiosk]\nsite-menu=sometimes\n",
             ["F:4: Kiosk/site-menu: expected auto, true or false"]),
            ("chord without modifier", sites + "[Kiosk]\nexit-chord=q\n",
             ["F:4: Kiosk/exit-chord: \"q\" is not a key with at least one modifier, like <Control><Alt>q"]),
            ("chord with unknown modifier", sites + "[Kiosk]\nexit-chord=<Hyperdrive>q\n",
             ["F:4: Kiosk/exit-chord: unknown modifier <hyperdrive> in \"<Hyperdrive>q\""]),

            // Locks belong to the system file.
            ("unknown lock", sites + "[Locks]\nkeys=Browser/zoom;Browser/zoomm;Sites/A;Weather\nmode=strict\n",
             ["F:4: Locks/keys: \"Browser/zoomm\" is not a group or Group/key that can be locked",
              "F:4: Locks/keys: \"Sites/A\": [Sites] is locked as a whole; write Sites",
              "F:4: Locks/keys: \"Weather\" is not a group or Group/key that can be locked",
              "F:5: Locks/mode: unknown key"]),

            // Several problems come in file order.
            ("several", "[Sites]\nA=a.example\nB=b example\n[Browser]\nzoom=0\n[Colours]\n",
             ["F:3: Sites/B: \"b example\" is not a host name or IP address; write a URL with its scheme, like https://b example",
              "F:5: Browser/zoom: out of range: expected 0.25 to 5.0",
              "F:6: [Colours]: unknown group"]),
        ]
        for (name, text, expected) in rows {
            // Locks are only honoured in the system file, so the lock row is loaded as one.
            if name == "unknown lock" {
                let file = try directory.write("system.conf", text)
                let result = ConfigLoader.load(sources: ConfigSources(system: file), validateFilter: standInFilterValidator)
                XCTAssertEqual(result.problems.map { $0.description.replacingOccurrences(of: file, with: "F") }, expected, name)
                continue
            }
            XCTAssertEqual(try problems(text), expected, name)
        }
    }

    func testSyntaxErrorsNameTheLineGLibQuotes() throws {
        let file = try directory.write("porthole.conf", "[Sites]\nA=a.example\nthis is junk\n")
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
        XCTAssertEqual(result.problems.count, 1)
        XCTAssertEqual(result.problems.first?.line, 3)
        XCTAssertNil(result.problems.first?.key)
        XCTAssertTrue(result.problems.first?.message.contains("this is junk") == true, "\(result.problems)")
        XCTAssertNil(result.configuration)
    }

    func testSyntaxErrorsGLibDoesNotQuoteAreLocatedByTheScan() throws {
        let rows: [(String, Int)] = [
            ("# header\nzoom=1\n[Sites]\nA=a.example\n", 2),  // "Key file does not start with a group"
            ("[Sites]\nA=a.example\nx[=2\n", 3),  // "Invalid key name: x["
        ]
        for (text, line) in rows {
            let file = try directory.write("porthole.conf", text)
            let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
            XCTAssertEqual(result.problems.map(\.line), [line], text)
        }
    }

    func testTextThatIsNotUTF8IsAProblem() throws {
        let file = directory.path + "/porthole.conf"
        try Data(Array("[Sites]\nA=a.example\nB=b".utf8) + [0xFF] + Array(".example\n".utf8)).write(to: URL(fileURLWithPath: file))
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
        XCTAssertEqual(result.problems.map(\.description), ["\(file):3: Sites/B: not UTF-8 text"])
    }

    func testEveryKeyIsReadIntoTheTypedConfiguration() throws {
        let file = try directory.write("porthole.conf", everyKeyFile)
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
        let pin = try XCTUnwrap(ExitPinHash("sha256:00112233445566778899aabbccddeeff:8c8fb15e510c23192b9ecceb9cc163a6062c5c05faa10a68d900fe73cb0af2f3"))
        let expected = Configuration(
            sites: SiteList([Site(name: "Start page", address: "porthole://start/"), Site(name: "Docs", address: "https://docs.example.org/")]),
            allow: ["wikipedia.org", "https://example.com/docs"], block: ["*", "ads.example"],
            browser: BrowserSettings(javascript: false, httpsOnly: true, zoom: 1.25, userAgentSuffix: "Porthole Kiosk/1",
                                     tlsExceptions: ["intranet.example", "192.168.1.10"]),
            privacy: PrivacySettings(ephemeral: true, grants: [PermissionGrant(host: "maps.example", permission: .geolocation),
                                                               PermissionGrant(host: "[::1]", permission: .camera)]),
            kiosk: KioskSettings(enabled: true, toolbar: false, shortcuts: [.back, .home, .zoom], printing: true,
                                 idleTimeout: 300, idleWarning: 20, hideCursor: 5, reloadEvery: 3600,
                                 exitPinHash: pin, exitChord: "<Control><Alt>q"),
            sources: [file])
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.configuration, expected)
    }

    func testDefaultsApplyWhenKeysAreAbsent() throws {
        let file = try directory.write("porthole.conf", "[Sites]\nHome=example.com\n")
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
        XCTAssertEqual(result.configuration, Configuration(sites: SiteList([Site(name: "Home", address: "example.com")]), sources: [file]))
        let defaults = Configuration()
        XCTAssertEqual(defaults.block, ["*"])
        XCTAssertEqual(defaults.allow, [])
        XCTAssertEqual(defaults.browser, BrowserSettings(javascript: true, httpsOnly: false, zoom: 1.0, userAgentSuffix: "", tlsExceptions: []))
        XCTAssertEqual(defaults.privacy, PrivacySettings(ephemeral: false, grants: []))
        XCTAssertEqual(defaults.kiosk.shortcuts, [.back, .forward, .reload])
        XCTAssertEqual(defaults.kiosk.idleWarning, 10)
        XCTAssertFalse(defaults.kiosk.enabled)
        XCTAssertTrue(defaults.kiosk.toolbar)
    }

    func testProblemsFailClosedButKeepValidSettings() throws {
        let file = try directory.write("porthole.conf",
                                       "[Sites]\nA=a.example\n[Policy]\nallow=b.example\n[Kiosk]\nenabled=true\nidle-timeout=soon\n")
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
        XCTAssertNil(result.configuration)
        let closed = result.effectiveConfiguration
        XCTAssertEqual(closed.sites, SiteList([Configuration.startPage]))
        XCTAssertEqual(closed.allow, [])
        XCTAssertEqual(closed.block, ["*"])
        XCTAssertTrue(closed.kiosk.enabled, "a kiosk with a typo stays a kiosk")
        XCTAssertEqual(closed.kiosk.idleTimeout, 0)
    }

    func testLoadingTwiceGivesTheSameResult() throws {
        let file = try directory.write("porthole.conf", everyKeyFile)
        let sources = ConfigSources(commandLine: file)
        XCTAssertEqual(ConfigLoader.load(sources: sources, validateFilter: standInFilterValidator),
                       ConfigLoader.load(sources: sources, validateFilter: standInFilterValidator))
    }

    private let everyKeyFile = """
        [Sites]
        Start page=porthole://start/
        Docs=https://docs.example.org/

        [Policy]
        allow=wikipedia.org;https://example.com/docs
        block=*;ads.example

        [Browser]
        javascript=false
        https-only=true
        zoom=1.25
        user-agent-suffix=Porthole Kiosk/1
        tls-exceptions=intranet.example;192.168.1.10

        [Privacy]
        ephemeral=true
        permissions=maps.example:geolocation;[::1]:camera

        [Kiosk]
        enabled=true
        toolbar=false
        shortcuts=back;home;zoom
        printing=true
        idle-timeout=300
        idle-warning=20
        hide-cursor=5
        reload-every=3600
        exit-pin-hash=sha256:00112233445566778899aabbccddeeff:8c8fb15e510c23192b9ecceb9cc163a6062c5c05faa10a68d900fe73cb0af2f3
        exit-chord=<Control><Alt>q

        """
}

/// Stands in for `URLFilter.parse` (the policy engine's), which the app passes to the loader.
let standInFilterValidator: FilterValidator = { filter in
    if filter.contains(" ") { return "contains a space" }
    if filter.contains(":0") { return "port 0" }
    return nil
}

/// A fresh directory under the system's temporary directory, removed by the test's tearDown.
struct TemporaryConfigDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("porthole-config-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` (which may contain subdirectories) and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
