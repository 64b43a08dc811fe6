// `--check-config` and run time share one validation: a site the check passes is one the policy approves.
import XCTest
@testable import PortholeCore

final class ConfigCheckAgreementTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    private func problems(_ text: String) throws -> [String] {
        let file = try directory.write("porthole.conf", text)
        return ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: URLFilter.validator)
            .problems.map { $0.description.replacingOccurrences(of: file, with: "F") }
    }

    /// Sites that an older check passed but the policy refused at run time, so the browser
    /// started without them.
    func testSitesThePolicyRefusesAreProblemsAtCheckTime() throws {
        let rows: [(site: String, problem: String)] = [
            ("[fe80::1%eth0]", "\"[fe80::1%eth0]\" is not a host name or IP address; write a URL with its scheme, like https://[fe80::1%eth0]"),
            ("http://[fe80::1%25eth0]/", "\"http://[fe80::1%25eth0]/\" has an invalid host \"fe80::1%eth0\""),
            ("http://host.example:0/", "\"http://host.example:0/\" cannot be approved: port \"0\" is not a number from 1 to 65535"),
            ("https://good.example;.evil.example/",
             "\"https://good.example;.evil.example/\" has an invalid host \"good.example;.evil.example\""),
        ]
        for row in rows {
            XCTAssertEqual(try problems("[Sites]\nA=a.example\nB=\(row.site)\n"), ["F:3: Sites/B: \(row.problem)"], row.site)
        }
        XCTAssertEqual(try problems("[Sites]\nA=a.example\n[Browser]\ntls-exceptions=fe80::1%eth0\n"),
                       ["F:4: Browser/tls-exceptions: \"fe80::1%eth0\" is not a host name or IP address"])
    }

    /// Every site the check passes gives the policy no problem.
    func testEverySiteTheCheckPassesThePolicyApproves() throws {
        let sites = ["a.example", "https://b.example:8443/x", "http://127.0.0.1:8080/", "[2001:db8::1]", "http://[2001:db8::2]/",
                     "bücher.de", "porthole://start/", "http://host.example:65535/"]
        let text = "[Sites]\n" + sites.enumerated().map { "S\($0.offset)=\($0.element)" }.joined(separator: "\n") + "\n"
        let file = try directory.write("porthole.conf", text)
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: URLFilter.validator)
        XCTAssertEqual(result.problems, [])
        let configuration = try XCTUnwrap(result.configuration)
        XCTAssertEqual(SitePolicy(sites: configuration.sites).problems.filter { !$0.filter.hasPrefix("porthole:") }, [])
    }

    func testCheckConfigChecksEveryFileGiven() throws {
        let good = try directory.write("good.conf", "[Sites]\nA=a.example\n")
        let bad = try directory.write("bad.conf", "[Sites]\nA=http://a.example:0/\n")
        var out: [String] = [], err: [String] = []
        let status = ConfigCheckCommand.run(paths: [good, bad], sources: ConfigSources(), validateFilter: URLFilter.validator,
                                            out: { out.append($0) }, err: { err.append($0) })
        XCTAssertEqual(status, 1)
        XCTAssertEqual(out, ["\(good): ok"])
        XCTAssertEqual(err, ["\(bad):2: Sites/A: \"http://a.example:0/\" cannot be approved: port \"0\" is not a number from 1 to 65535"])
    }

    func testConfigGivenTwiceIsAnError() {
        XCTAssertEqual(Arguments.commandLineProblem(["porthole", "--config", "a.conf", "--config=b.conf"]), "--config can be given only once")
        XCTAssertEqual(Arguments.commandLineProblem(["porthole", "--config", "a.conf", "--config", "b.conf"]), "--config can be given only once")
        XCTAssertNil(Arguments.commandLineProblem(["porthole", "--config", "--config"]), "the value of --config may be any name")
        XCTAssertNil(Arguments.commandLineProblem(["porthole", "--config", "a.conf", "--", "--config"]))
        XCTAssertNil(Arguments.commandLineProblem(["porthole", "--kiosk", "--config=a.conf", "https://a.example/"]))
    }
}
