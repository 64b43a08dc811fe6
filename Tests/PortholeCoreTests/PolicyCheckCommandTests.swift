// `porthole policy check`: output format, standard input, configured policy, exit codes.
import XCTest
import PortholeCore

final class PolicyCheckCommandTests: XCTestCase {
    struct Run {
        var status: Int32 = 0
        var out: [String] = []
        var err: [String] = []
        var configuredPolicyUsed = false
        var configFile: String?
    }

    func run(_ arguments: [String], stdin: [String] = [],
             configured: SitePolicy = SitePolicy(sites: SiteList([Site(name: "Apple", address: "apple.com")]))) -> Run {
        var result = Run()
        var lines = stdin[...]
        result.status = PolicyCheckCommand.run(
            arguments: arguments,
            configuredPolicy: { file in
                result.configuredPolicyUsed = true
                result.configFile = file
                return (configured, file == "broken.conf" ? ["broken.conf:2: [Sites]: bad"] : [])
            },
            readLine: { lines.popFirst() },
            out: { result.out.append($0) },
            err: { result.err.append($0) })
        return result
    }

    func testACandidateConfigFileIsDecidedByAndItsProblemsFailTheRun() {
        let good = run(["--config", "candidate.conf", "https://www.apple.com/"])
        XCTAssertEqual(good.configFile, "candidate.conf")
        XCTAssertEqual(good.out, ["allowed\thttps://www.apple.com/\tapple.com"])
        XCTAssertEqual(good.status, 0)
        XCTAssertEqual(run(["--config=candidate.conf", "https://www.apple.com/"]).configFile, "candidate.conf")
        let broken = run(["--config", "broken.conf", "https://www.apple.com/"])
        XCTAssertEqual(broken.err, ["broken.conf:2: [Sites]: bad"], "the problem says where")
        XCTAssertEqual(broken.status, 1)
        XCTAssertNil(run(["https://www.apple.com/"]).configFile, "without --config, the configuration Porthole would load")
        XCTAssertEqual(run(["--config"]).status, 2)
        XCTAssertEqual(run(["--config", "c.conf", "--allow", "a.example", "https://a.example/"]).status, 2)
    }

    func testPrintsVerdictURLAndDecidingFilter() {
        let result = run(["--allow", "apple.com", "--block", "*", "https://www.apple.com/", "https://evil.example/"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.out, [
            "allowed\thttps://www.apple.com/\tapple.com",
            "blocked\thttps://evil.example/\t*",
        ])
        XCTAssertEqual(result.err, [])
        XCTAssertFalse(result.configuredPolicyUsed)
    }

    func testGivenListsAreExactlyThoseGiven() {
        let result = run(["--block", "evil.example", "https://evil.example/", "https://other.example/"])
        XCTAssertEqual(result.out, [
            "blocked\thttps://evil.example/\tevil.example",
            "allowed\thttps://other.example/\t-",
        ])
        XCTAssertEqual(run(["--allow=apple.com", "https://other.example/"]).out, ["allowed\thttps://other.example/\t-"])
    }

    func testEqualsFormAndMixedOrder() {
        let result = run(["https://a.example/x", "--block=a.example", "--allow=a.example/x", "https://a.example/y"])
        XCTAssertEqual(result.out, [
            "allowed\thttps://a.example/x\ta.example/x",
            "blocked\thttps://a.example/y\ta.example",
        ])
    }

    func testWithoutListsTheConfiguredPolicyApplies() {
        let result = run(["https://support.apple.com/", "https://apple.com.evil.example/", "javascript:alert(1)", "porthole:start"])
        XCTAssertTrue(result.configuredPolicyUsed)
        XCTAssertEqual(result.out, [
            "allowed\thttps://support.apple.com/\tapple.com",
            "blocked\thttps://apple.com.evil.example/\t*",
            "blocked\tjavascript:alert(1)\t-",
            "allowed\tporthole:start\t-",
        ])
    }

    func testReadsURLsFromStandardInputSkippingBlankLines() {
        let result = run(["--block", "*", "--allow", "apple.com"],
                         stdin: ["https://apple.com/", "", "   ", "  https://evil.example/  ", "\t"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.out, [
            "allowed\thttps://apple.com/\tapple.com",
            "blocked\thttps://evil.example/\t*",
        ])
    }

    func testInvalidFiltersAreReportedAndSkipped() {
        let result = run(["--allow", "*.apple.com", "--block", "*", "--block", "x:0", "https://www.apple.com/"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.err, [
            "porthole: invalid filter \"x:0\": port \"0\" is not a number from 1 to 65535",
            "porthole: invalid filter \"*.apple.com\": \"*\" can only stand alone for any host; \"example.com\" already matches its subdomains",
        ])
        XCTAssertEqual(result.out, ["blocked\thttps://www.apple.com/\t*"])
    }

    func testConfiguredPolicyProblemsAreReported() {
        let configured = SitePolicy(sites: SiteList([Site(name: "Bad", address: "apple..com")]))
        let result = run(["https://apple.com/"], configured: configured)
        XCTAssertEqual(result.err, ["porthole: invalid filter \"apple..com\": site \"Bad\": host \"apple..com\" has an empty label"])
        XCTAssertEqual(result.out, ["blocked\thttps://apple.com/\t*"])
    }

    func testUnknownOptionIsAUsageError() {
        let result = run(["--alow", "apple.com", "https://apple.com/"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.out, [])
        XCTAssertEqual(result.err, ["porthole: unknown option \"--alow\"", PolicyCheckCommand.usage])
        XCTAssertFalse(result.configuredPolicyUsed)
    }

    func testMissingValueIsAUsageError() {
        let result = run(["https://apple.com/", "--block"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.out, [])
        XCTAssertEqual(result.err, ["porthole: --block needs a filter", PolicyCheckCommand.usage])
    }

    func testHelpAndDoubleDash() {
        XCTAssertEqual(run(["--help"]).out, [PolicyCheckCommand.usage])
        XCTAssertEqual(run(["--help"]).status, 0)
        let result = run(["--block", "*", "--", "--allow"])
        XCTAssertEqual(result.out, ["blocked\t--allow\t-"])
        XCTAssertEqual(result.status, 0)
    }
}
