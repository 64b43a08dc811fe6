// `[Network] proxy=` and `proxy-ignore=`: what is accepted, and the problem for what is not.
import XCTest
@testable import PortholeCore

final class ConfigNetworkTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    private func load(_ network: String) throws -> (ConfigLoadResult, String) {
        let file = try directory.write("porthole.conf", "[Sites]\nA=a.example\n[Network]\n" + network)
        return (ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator), file)
    }

    func testSchoolProxyIsUsedWithItsExceptions() throws {
        let rows: [(String, NetworkSettings)] = [
            ("", NetworkSettings()),
            ("proxy=\n", NetworkSettings()),
            ("proxy=http://proxy.school.example:3128\n", NetworkSettings(proxy: "http://proxy.school.example:3128")),
            ("proxy=socks5://10.0.0.1:1080/\nproxy-ignore=localhost;*.school.example;10.0.0.0/8;fd00::/8;intranet\n",
             NetworkSettings(proxy: "socks5://10.0.0.1:1080/",
                             proxyIgnore: ["localhost", "*.school.example", "10.0.0.0/8", "fd00::/8", "intranet"])),
        ]
        for (text, expected) in rows {
            let (result, _) = try load(text)
            XCTAssertEqual(result.problems, [], text)
            XCTAssertEqual(result.configuration?.network, expected, text)
        }
    }

    func testBadProxyIsAProblemAndFailsClosed() throws {
        let rows: [(String, String)] = [
            ("proxy=proxy.example:3128\n", "Network/proxy: \"proxy.example:3128\" has the unsupported proxy scheme proxy.example: use http, https, socks, socks4, socks4a, socks5"),
            ("proxy=ftp://proxy.example/\n", "Network/proxy: \"ftp://proxy.example/\" has the unsupported proxy scheme ftp: use http, https, socks, socks4, socks4a, socks5"),
            ("proxy=http://proxy.example/filter\n", "Network/proxy: \"http://proxy.example/filter\": a proxy is scheme://host[:port], without a path, query or fragment"),
            ("proxy=http://bad host/\n", "Network/proxy: \"http://bad host/\" has no valid host"),
            ("proxy=http://[::1/\n", "Network/proxy: \"http://[::1/\" is not a valid URL: Invalid IPv6 address ‘[::1’ in URI; write a proxy like http://proxy.example:3128"),
            ("proxy-ignore=ok.example;*;10.0.0.0/40\n", "Network/proxy-ignore: \"*\" is not a host, *.domain or IP address range like 10.0.0.0/8"),
        ]
        for (text, expected) in rows {
            let (result, file) = try load(text)
            XCTAssertEqual(result.problems.first.map { $0.description.replacingOccurrences(of: file + ":4: ", with: "") }, expected, text)
            XCTAssertNil(result.configuration, text)
        }
    }
}
