// 100,000 filters: the indexed decision agrees with a plain scan of every filter (correctness,
// not timing; the timing targets live in policy-bench).
import Dispatch
import Foundation
import PortholeCore
import XCTest

/// The scan's answer for each URL, written from `concurrentPerform`'s threads.
private final class ScanResults: @unchecked Sendable {  // every access holds `lock`
    private let lock = NSLock()
    private var stored: [(Bool, String)?]
    init(count: Int) { stored = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ result: (Bool, String)?) { lock.withLock { stored[index] = result } }
    var results: [(Bool, String)?] { lock.withLock { stored } }
}

final class PolicyScaleTests: XCTestCase {
    /// Deterministic filters: hosts with paths, queries, ports, schemes, exact hosts, IPs.
    static func filters(count: Int, seed: UInt64) -> (allow: [String], block: [String]) {
        var random = seed
        func next(_ bound: Int) -> Int {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Int((random >> 33) % UInt64(bound))
        }
        let tlds = ["com", "org", "net", "example", "test"]
        var allow: [String] = []
        var block: [String] = []
        for index in 0..<count {
            var host = "site\(index % (count / 2 + 1)).\(tlds[index % tlds.count])"
            if next(3) == 0 { host = "w\(next(5))." + host }
            var filter: String
            switch next(20) {
            case 0: filter = "." + host
            case 1: filter = "https://" + host
            case 2: filter = host + ":8080"
            case 3: filter = "10.\(next(4)).\(next(4)).\(next(250))"
            default: filter = host
            }
            switch next(6) {
            case 0: filter += "/p\(next(3))"
            case 1: filter += "/p\(next(3))/q"
            case 2: filter += "/?v=\(next(3))"
            case 3: filter += "/p\(next(2))?v=\(next(3))&w*"
            default: break
            }
            if next(2) == 0 { allow.append(filter) } else { block.append(filter) }
        }
        allow += ["*/open", "https://*:8443"]
        block += ["*", "*:8080/x"]
        return (allow, block)
    }

    static func urls(count: Int, filterCount: Int, seed: UInt64) -> [String] {
        var random = seed
        func next(_ bound: Int) -> Int {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Int((random >> 33) % UInt64(bound))
        }
        let tlds = ["com", "org", "net", "example", "test"]
        var urls: [String] = []
        for _ in 0..<count {
            let index = next(filterCount)
            var host = "site\(index % (filterCount / 2 + 1)).\(tlds[next(6) % tlds.count])"
            switch next(4) {
            case 0: host = "w\(next(5))." + host
            case 1: host = "a.b.w\(next(5))." + host
            default: break
            }
            if next(8) == 0 { host = "10.\(next(4)).\(next(4)).\(next(250))" }
            let scheme = next(3) == 0 ? "http" : "https"
            let port = [":8080", ":8443", "", "", ""][next(5)]
            let path = ["/", "/p0", "/p1/q", "/p2/q/r", "/open/x", "/x"][next(6)]
            let query = ["", "?v=0", "?v=1&w=2", "?v=2&v=1", "?w"][next(5)]
            urls.append("\(scheme)://\(host)\(port)\(path)\(query)")
        }
        return urls
    }

    /// The most specific matching filter by scanning all of them, with Chrome's precedence
    /// written out again from url_blocklist_manager.cc's FilterTakesPrecedence.
    static func scan(_ filters: [(URLFilter, Bool)], _ url: CanonicalURL) -> (Bool, String)? {
        func isWildcardBlock(_ entry: (URLFilter, Bool)) -> Bool {
            !entry.1 && entry.0.text == "*"
        }
        func beats(_ lhs: (URLFilter, Bool), _ rhs: (URLFilter, Bool)) -> Bool {
            if isWildcardBlock(rhs) { return !isWildcardBlock(lhs) }
            if isWildcardBlock(lhs) { return false }
            if lhs.0.matchesSubdomains != rhs.0.matchesSubdomains { return !lhs.0.matchesSubdomains }
            if lhs.0.host.utf8.count != rhs.0.host.utf8.count { return lhs.0.host.utf8.count > rhs.0.host.utf8.count }
            if lhs.0.path.utf8.count != rhs.0.path.utf8.count { return lhs.0.path.utf8.count > rhs.0.path.utf8.count }
            if lhs.0.queryTokenCount != rhs.0.queryTokenCount { return lhs.0.queryTokenCount > rhs.0.queryTokenCount }
            return lhs.1 && !rhs.1
        }
        var best: (URLFilter, Bool)?
        for entry in filters where entry.0.matches(url, asAllowFilter: entry.1) {
            if let current = best, !beats(entry, current) { continue }
            best = entry
        }
        return best.map { ($0.1, $0.0.text) }
    }

    func testHundredThousandFiltersDecideLikeAScan() throws {
        let (allow, block) = PolicyScaleTests.filters(count: 100_000, seed: 7)
        let policy = SitePolicy(allow: allow, block: block)
        XCTAssertEqual(policy.problems, [])
        // Chrome's order: block filters first, then allow filters; the first of equals decides.
        let entries = try block.map { (try URLFilter.parse($0), false) } + allow.map { (try URLFilter.parse($0), true) }
        let urls = PolicyScaleTests.urls(count: 200, filterCount: 100_000, seed: 11)
        let canonical = try urls.map { try XCTUnwrap(CanonicalURL($0), $0) }
        // The scan is 20 million matches in a debug build: each URL's is independent, so they run
        // on every core (the answers are compared below, on the test's thread).
        let scans = ScanResults(count: urls.count)
        DispatchQueue.concurrentPerform(iterations: urls.count) { index in
            scans.set(index, PolicyScaleTests.scan(entries, canonical[index]))
        }
        var allowedCount = 0
        for (index, text) in urls.enumerated() {
            let expected = scans.results[index]
            let decision = policy.decide(url: text)
            XCTAssertEqual(decision.isAllowed, expected?.0 ?? true, text)
            XCTAssertEqual(decision.filter, expected?.1, text)
            if decision.isAllowed { allowedCount += 1 }
        }
        // Both verdicts occur, so the comparison means something.
        XCTAssertGreaterThan(allowedCount, 10)
        XCTAssertLessThan(allowedCount, 180)
    }

    func testHundredThousandFiltersKeepKnownAnswers() {
        var allow = (0..<50_000).map { "allowed\($0).example" }
        var block = (0..<50_000).map { "blocked\($0).example" }
        allow.append("blocked49999.example/public")
        block.append("*")
        let policy = SitePolicy(allow: allow, block: block)
        XCTAssertEqual(policy.decide(url: "https://www.allowed12345.example/").filter, "allowed12345.example")
        XCTAssertEqual(policy.decide(url: "https://blocked12345.example/").filter, "blocked12345.example")
        XCTAssertEqual(policy.decide(url: "https://blocked49999.example/public/x").filter, "blocked49999.example/public")
        XCTAssertEqual(policy.decide(url: "https://allowed12345.example.evil.test/").filter, "*")
        XCTAssertEqual(policy.decide(url: "https://xallowed12345.example/").filter, "*")
        XCTAssertFalse(policy.isAllowed("https://allowed50000.example/"))
    }
}
