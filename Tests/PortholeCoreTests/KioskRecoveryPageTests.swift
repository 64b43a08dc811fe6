// Classifying failed loads, certificate decisions, and the pages shown while a page comes back.
import CGLib
import PortholeCore
import XCTest

final class KioskRecoveryPageTests: XCTestCase {
    func testNetworkFailuresAreRetriedOthersAreNot() {
        let io = String(cString: g_quark_to_string(g_io_error_quark()))
        let resolver = String(cString: g_quark_to_string(g_resolver_error_quark()))
        let rows: [(String, Int32, LoadFailure)] = [
            // WebKitError.h: WEBKIT_NETWORK_ERROR_FAILED 399, _TRANSPORT 300, _UNKNOWN_PROTOCOL 301,
            // _CANCELLED 302, _FILE_DOES_NOT_EXIST 303.
            ("WebKitNetworkError", 399, .network),
            ("WebKitNetworkError", 300, .network),
            ("WebKitNetworkError", 301, .other),
            ("WebKitNetworkError", 302, .cancelled),
            ("WebKitNetworkError", 303, .other),
            (io, Int32(G_IO_ERROR_CONNECTION_REFUSED.rawValue), .network),
            (io, Int32(G_IO_ERROR_TIMED_OUT.rawValue), .network),
            (io, Int32(G_IO_ERROR_HOST_UNREACHABLE.rawValue), .network),
            (io, Int32(G_IO_ERROR_NETWORK_UNREACHABLE.rawValue), .network),
            (io, Int32(G_IO_ERROR_NOT_FOUND.rawValue), .other),
            (io, Int32(G_IO_ERROR_PERMISSION_DENIED.rawValue), .other),
            (resolver, Int32(G_RESOLVER_ERROR_NOT_FOUND.rawValue), .network),
            (resolver, Int32(G_RESOLVER_ERROR_TEMPORARY_FAILURE.rawValue), .network),
            ("WebKitPolicyError", 102, .interruptedByPolicy),
            ("WebKitPolicyError", 101, .other),
            (io, Int32(G_IO_ERROR_CANCELLED.rawValue), .cancelled),
            ("soup-session-error-quark", 3, .other),
        ]
        for (domain, code, expected) in rows {
            XCTAssertEqual(LoadFailure.classify(domain: domain, code: code), expected, "\(domain) \(code)")
        }
    }

    func testCertificateErrorsAreAcceptedOnlyForListedHosts() {
        let exceptions = ["intranet.example", "192.168.1.10", "[::1]"]
        let rows: [(String, CertificatePolicy.Decision)] = [
            ("https://intranet.example/", .acceptForHost("intranet.example")),
            ("https://INTRANET.example:8443/x", .acceptForHost("intranet.example")),
            ("https://www.intranet.example/", .refuse),
            ("https://intranet.example.evil/", .refuse),
            ("https://192.168.1.10/", .acceptForHost("192.168.1.10")),
            ("https://[::1]:8443/", .acceptForHost("::1")),
            ("https://other.example/", .refuse),
            ("not a url", .refuse),
        ]
        for (url, expected) in rows {
            XCTAssertEqual(CertificatePolicy.decide(url: url, exceptions: exceptions), expected, url)
        }
        XCTAssertEqual(CertificatePolicy.decide(url: "https://intranet.example/", exceptions: []), .refuse)
    }

    func testCertificateProblemsAreNamed() {
        let flags = G_TLS_CERTIFICATE_UNKNOWN_CA.rawValue | G_TLS_CERTIFICATE_EXPIRED.rawValue
        XCTAssertEqual(CertificatePolicy.problems(flags: flags),
                       ["The certificate is not signed by an authority this computer trusts.", "The certificate has expired."])
        XCTAssertEqual(CertificatePolicy.problems(flags: 0), ["The certificate could not be checked."])
    }

    func testCertificatePageOffersNoWayToContinue() {
        let html = PortholePage.certificateError(url: "https://evil.example/<x>", problems: ["Bad <cert>"], homeURL: "porthole://start/")
        XCTAssertTrue(html.contains("https://evil.example/&lt;x&gt;"))
        XCTAssertTrue(html.contains("Bad &lt;cert&gt;"))
        XCTAssertFalse(html.contains("href=\"https://evil.example"), "no link leads to the refused site")
        XCTAssertFalse(html.lowercased().contains("continue"))
        XCTAssertFalse(html.lowercased().contains("proceed"))
        XCTAssertFalse(html.contains("<script"))
        XCTAssertTrue(html.contains(">Back</a>"))
        XCTAssertTrue(html.contains("href=\"porthole://start/\">Home</a>"))
    }

    func testRetryAndCrashPagesCountDownWithoutScript() {
        let retry = PortholePage.retrying(url: "http://a.example/?q=<b>", message: "Could not connect", secondsLeft: 4,
                                          homeURL: "porthole://start/")
        XCTAssertTrue(retry.contains("id=\"porthole-countdown\">Trying again in 4 seconds.</p>"))
        XCTAssertTrue(retry.contains("http://a.example/?q=&lt;b&gt;"))
        XCTAssertTrue(retry.contains(">Try again now</a>"))
        XCTAssertFalse(retry.contains("<script"))
        XCTAssertFalse(retry.lowercased().contains("http-equiv"), "the browser retries, not a meta refresh")
        let crash = PortholePage.crashed(url: "http://a.example/", secondsLeft: 1, homeURL: nil)
        XCTAssertTrue(crash.contains("Reloading in 1 second."))
        XCTAssertFalse(crash.contains("<script"))
        XCTAssertEqual(PortholePage.countdownText(.retry, secondsLeft: 0), "Trying again now…")
    }

    func testCountdownScriptQuotesItsText() {
        let script = PortholePage.countdownScript("a\"b\\c</script>\n\u{2028}")
        XCTAssertTrue(script.contains(#"textContent="a\"b\\c\u003c/script>\n\u2028""#), script)
        XCTAssertEqual(JavaScript.stringLiteral("\u{1}"), #""\u0001""#)
    }
}
