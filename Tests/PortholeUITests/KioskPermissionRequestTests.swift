// Permission requests from real pages: denied in kiosk mode and out of it, unless granted per site.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

/// A page that asks for the location and reports the answer to the server. (Geolocation goes
/// through WebKit's "permission-request"; WebKitGTK 2.50 answers Notification.requestPermission()
/// itself, with "denied", in this environment, so it would not show what Porthole decides.)
private let askingPage = """
    <!DOCTYPE html><html><head><title>Asking</title></head><body>
    <script>
    navigator.geolocation.getCurrentPosition(
        () => fetch('/report?geolocation=position'),
        e => fetch('/report?geolocation=' + e.code));
    </script></body></html>
    """

/// Loads the asking page in `configuration`'s window; returns what the page reported.
@MainActor
private func answers(_ configure: (inout Configuration, TestServer) -> Void) -> (reports: [String], log: [(String, Bool)]) {
    let server = TestServer()
    defer { server.stop() }
    server.route = { request in request.path == "/report" ? .body("ok", mimeType: "text/plain") : .html(askingPage) }
    var configuration = Configuration(sites: SiteList([Site(name: "Asking", address: server.url("/ask"))]))
    configure(&configuration, server)
    let window = TestApp.window(configuration: configuration)
    defer { TestApp.destroy(window) }
    let log = EventLog(window)
    window.goHome()
    UI.wait { server.requests.filter { $0.path == "/report" }.count == 1 }
    let reports = server.requests.filter { $0.path == "/report" }.compactMap(\.query).sorted()
    return (reports, log.permissions)
}

final class KioskPermissionRequestTests: XCTestCase {
    func testPermissionsAreDeniedInKioskMode() {
        MainActor.assumeIsolated {
            let (reports, log) = answers { configuration, _ in configuration.kiosk.enabled = true }
            // GeolocationPositionError.PERMISSION_DENIED is 1.
            XCTAssertEqual(reports, ["geolocation=1"])
            XCTAssertEqual(log.map(\.0), ["geolocation"], "Porthole's handler answered")
            XCTAssertEqual(log.map(\.1), [false])
        }
    }

    func testPermissionsAreDeniedAtADeskToo() {
        MainActor.assumeIsolated {
            let (reports, log) = answers { _, _ in }
            XCTAssertEqual(reports, ["geolocation=1"])
            XCTAssertEqual(log.map(\.1), [false])
        }
    }

    func testPermissionQueriesSayGrantedOnlyForGrants() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in request.path == "/report" ? .body("ok", mimeType: "text/plain") : .html("""
                <title>Query</title><script>
                Promise.all(['microphone', 'camera'].map(name => navigator.permissions.query({ name }).then(s => name + '=' + s.state)))
                    .then(states => fetch('/report?' + states.join('&')));
                </script>
                """) }
            var configuration = TestApp.kioskConfiguration(sites: [Site(name: "Query", address: server.url("/query"))])
            configuration.privacy.grants = [PermissionGrant(host: "127.0.0.1", permission: .camera)]
            let window = TestApp.window(configuration: configuration)
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { server.count(path: "/report") == 1 })
            // Porthole answers denied for the microphone; WebKit shows a denied camera or
            // microphone to the page as "prompt", so that a page cannot tell a refusal apart.
            // (It answers geolocation queries itself, without asking the browser.)
            XCTAssertEqual(server.requests.first { $0.path == "/report" }?.query, "microphone=prompt&camera=granted")
        }
    }

    func testAGrantForAnotherPermissionOrHostGrantsNothing() {
        MainActor.assumeIsolated {
            let (reports, log) = answers { configuration, _ in
                configuration.kiosk.enabled = true
                configuration.privacy.grants = [PermissionGrant(host: "127.0.0.1", permission: .camera),
                                                PermissionGrant(host: "localhost", permission: .geolocation)]
            }
            XCTAssertEqual(reports, ["geolocation=1"])
            XCTAssertEqual(log.map(\.1), [false])
        }
    }

    func testAGrantForThisHostIsHonoured() {
        MainActor.assumeIsolated {
            let (reports, log) = answers { configuration, _ in
                configuration.kiosk.enabled = true
                configuration.privacy.grants = [PermissionGrant(host: "127.0.0.1", permission: .geolocation)]
            }
            XCTAssertEqual(reports.count, 1)
            // Allowed, but this machine has no location source: POSITION_UNAVAILABLE (2) or a
            // position, never PERMISSION_DENIED (1).
            XCTAssertFalse(reports.contains("geolocation=1"), "\(reports)")
            XCTAssertEqual(log.map(\.1), [true])
        }
    }
}
