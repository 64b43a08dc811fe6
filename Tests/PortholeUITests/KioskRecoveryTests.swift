// Pages that come back by themselves (crashes, a server or network that returns) and
// certificates that cannot be trusted.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private func page(_ title: String, _ body: String = "") -> String {
    "<!DOCTYPE html><html><head><title>\(title)</title></head><body><h1>\(title)</h1>\(body)</body></html>"
}

/// Emits GNetworkMonitor's "network-changed" (`void (*)(GNetworkMonitor*, gboolean available)`),
/// as the monitor does when connectivity returns; g_signal_emit_by_name is variadic.
@MainActor
private func emitNetworkChanged(available: Bool) {
    guard let monitor = g_network_monitor_get_default() else { return }
    var values = [GValue(), GValue()]
    g_value_init(&values[0], g_network_monitor_get_type())
    g_value_set_object(&values[0], UnsafeMutableRawPointer(monitor))
    g_value_init(&values[1], GType(5 << 2))  // G_TYPE_BOOLEAN
    g_value_set_boolean(&values[1], available ? 1 : 0)
    g_signal_emitv(&values, g_signal_lookup("network-changed", g_network_monitor_get_type()), 0, nil)
    g_value_unset(&values[0])
    g_value_unset(&values[1])
}

/// Whether the page session has logged that the page stopped responding (LogCapture running).
private func unresponsiveSaid(times: Int = 1) -> Bool {
    LogCapture.current.filter { $0["PORTHOLE_EVENT"] == "page-unresponsive" }.count >= times
}

final class KioskRecoveryTests: XCTestCase {
    func testACrashedPageComesBackByItselfAndRepeatedCrashesWaitWithACountdown() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(page("Still here")) }
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Here", address: server.url("/here"))]))
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/here")))
            webkit_web_view_terminate_web_process(window.webView!)
            XCTAssertTrue(UI.wait { server.count(path: "/here") == 2 }, "the first crash reloads at once")
            XCTAssertTrue(UI.wait { UI.bodyText(window).contains("Still here") })
            // Crashing again straight away: the crash page counts down, then the page is back. The
            // page is shown for what is left of the second once a new web process runs (sandboxed,
            // ~0.7 s to start on a busy machine): judged by the address it committed, not by reading
            // its text in time.
            let events = EventLog(window)
            webkit_web_view_terminate_web_process(window.webView!)
            XCTAssertTrue(UI.wait(5) { server.count(path: "/here") == 3 }, "then it reloads by itself")
            XCTAssertTrue(events.events.contains { if case .uri(let uri?) = $0 { uri.hasPrefix("porthole://crashed/") } else { false } },
                          "the crash page showed in between: \(events.events)")
            XCTAssertTrue(UI.wait { UI.bodyText(window).contains("Still here") })
            XCTAssertEqual(window.coordinator.uri, server.url("/here"))
        }
    }

    /// WebKit finds a stopped web process unresponsive on its own timer (3 s); the
    /// `unresponsive-timeout` after that runs on a clock the test advances once WebKit has said so.
    func testAStoppedWebProcessIsReplacedAndThePageComesBack() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(page("Alive", "<input id=i>")) }
            let clock = ManualClock()
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Here", address: server.url("/here"))]) {
                $0.browser.unresponsiveTimeout = 2
            }, clock: clock)
            defer { TestApp.destroy(window) }
            LogCapture.start()
            defer { _ = LogCapture.stop() }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/here")))
            let pid = try XCTUnwrap(WebProcesses.newest(), "the page's web process")
            kill(pid, SIGSTOP)
            defer { kill(pid, SIGCONT) }
            // WebKit notices a process that does not answer when it has something to ask of it.
            UI.press(UInt32(GDK_KEY_a), in: window)
            XCTAssertTrue(UI.wait(20) { unresponsiveSaid() }, "WebKit finds the page unresponsive")
            clock.advance(by: 1.9)
            XCTAssertEqual(server.count(path: "/here"), 1, "not ended before its timeout")
            clock.advance(by: 0.1)
            XCTAssertTrue(UI.wait(20) { server.count(path: "/here") == 2 }, "the hung page was ended and loaded again")
            XCTAssertTrue(UI.wait { window.state.title == "Alive" && !window.coordinator.isLoading })
        }
    }

    /// A page whose script never returns, on a kiosk nobody touches: WebKit has nothing to ask it,
    /// so Porthole asks (a round trip through the web process extension) and replaces it within
    /// `unresponsive-timeout` plus the question's interval, with no input at all.
    func testAHungPageNobodyTouchesIsReplaced() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in
                request.path == "/spin" ? .html(page("Spinning", "<script>setTimeout(function(){for(;;){}},0)</script>")) : .html(page("Other"))
            }
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Spin", address: server.url("/spin"))]) {
                $0.browser.unresponsiveTimeout = 2
            })
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { server.count(path: "/spin") == 1 && window.state.title == "Spinning" })
            XCTAssertTrue(UI.wait(30) { server.count(path: "/spin") == 2 }, "the hung page was ended and loaded again, untouched")
        }
    }

    /// An `alert()` in a loop stalls Home behind the modal; ended for not responding, the same page
    /// would start the loop again: the second time Porthole shows the crash page with Home. WebKit
    /// finds the page unresponsive on its own timer; the timeout after that is on the test's clock.
    func testAnAlertLoopIsEndedOnceThenLeftForTheCrashPageWithHome() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html(page("Alerts", "<script>setTimeout(function(){for(;;)alert('again')},0)</script>")) }
            let clock = ManualClock()
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Alerts", address: server.url("/alerts"))]) {
                $0.browser.unresponsiveTimeout = 1
            }, clock: clock)
            defer { TestApp.destroy(window) }
            LogCapture.start()
            defer { _ = LogCapture.stop() }
            let connections = SignalConnections()
            defer { connections.disconnectAll() }
            var alerts = 0
            connections.connect(UnsafeMutableRawPointer(window.webView!), "script-dialog", .pointerReturningBool { _ in
                alerts += 1
                return false  // WebKit's own dialog, as a visitor sees it
            })
            window.goHome()
            XCTAssertTrue(UI.wait { alerts >= 1 }, "the page's alert shows")
            // Home while the alert is up: the web process does not answer, and is ended.
            window.goHome()
            XCTAssertTrue(UI.wait(30) { unresponsiveSaid(times: 1) }, "WebKit finds the page unresponsive")
            XCTAssertEqual(server.count(path: "/alerts"), 1, "not ended before its timeout")
            clock.advance(by: 1)
            XCTAssertTrue(UI.wait(30) { server.count(path: "/alerts") == 2 && alerts >= 2 }, "ended once, the page is brought back (and alerts again)")
            window.goHome()
            XCTAssertTrue(UI.wait(30) { unresponsiveSaid(times: 2) }, "unresponsive again")
            clock.advance(by: 1)
            XCTAssertTrue(UI.wait(30) { UI.bodyText(window).contains("It stopped responding twice in a row") },
                          "the second time, the crash page: \(UI.bodyText(window))")
            XCTAssertEqual(server.count(path: "/alerts"), 2, "the looping page is not loaded a third time")
            XCTAssertTrue(UI.bodyText(window).contains("Home"))
        }
    }

    func testAServerThatIsDownShowsTheRetryPageThenThePageWhenItIsBack() {
        MainActor.assumeIsolated {
            let probe = TestServer()
            let port = probe.port
            let url = probe.url("/news")
            probe.stop()
            // The back-off runs on a clock the test advances: each retry comes when the test says
            // a second has passed, never by itself.
            let clock = ManualClock()
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "News", address: url)]), clock: clock)
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { UI.bodyText(window).contains("This page could not be loaded") }, "the retry page shows")
            let text = UI.bodyText(window)
            XCTAssertTrue(text.contains("Trying again in 1 second."), text)
            XCTAssertTrue(text.contains("The site could not be reached"), "plain words: \(text)")
            XCTAssertTrue(UI.evaluate("document.querySelector('details').textContent", in: window)?.localizedCaseInsensitiveContains("connect") ?? false,
                          "the technical reason is there, folded away")
            XCTAssertNotNil(clock.nextDue, "the retry waits on the test's clock")
            // The second failure waits 2 s, and the countdown line ticks down.
            clock.advance(by: 1)
            XCTAssertTrue(UI.wait { UI.bodyText(window).contains("Trying again in 2 seconds.") }, UI.bodyText(window))
            clock.advance(by: 1)
            XCTAssertTrue(UI.wait { UI.bodyText(window).contains("Trying again in 1 second.") }, "the countdown ticks")

            let server = TestServer(port: port)
            defer { server.stop() }
            server.route = { _ in .html(page("Today's news")) }
            XCTAssertTrue(UI.waitForFrames(of: window.window!, 3))
            XCTAssertEqual(server.count(path: "/news"), 0, "no retry before its time")
            clock.advance(by: 1)
            XCTAssertTrue(UI.wait { window.state.title == "Today's news" }, "the page is back by itself")
            XCTAssertEqual(window.coordinator.uri, url)
            XCTAssertEqual(server.count(path: "/news"), 1)
            XCTAssertFalse(window.coordinator.canGoBack, "the retries left no error pages in the history")
        }
    }

    func testTheNetworkComingBackRetriesAtOnce() {
        MainActor.assumeIsolated {
            let probe = TestServer()
            let port = probe.port
            let url = probe.url("/news")
            probe.stop()
            let clock = ManualClock()
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "News", address: url)]), clock: clock)
            defer { TestApp.destroy(window) }
            window.goHome()
            // Let the back-off grow to 4 s: on the test's clock, which then stands still, so only
            // the network coming back can bring the page.
            XCTAssertTrue(UI.wait { UI.bodyText(window).contains("Trying again in 1 second.") })
            clock.advance(by: 1)
            XCTAssertTrue(UI.wait { UI.bodyText(window).contains("Trying again in 2 seconds.") })
            clock.advance(by: 2)
            XCTAssertTrue(UI.wait { UI.bodyText(window).contains("Trying again in 4 seconds.") })
            XCTAssertNotNil(clock.nextDue, "the back-off waits on the test's clock, which does not move from here")
            let server = TestServer(port: port)
            defer { server.stop() }
            server.route = { _ in .html(page("Back online")) }
            emitNetworkChanged(available: true)
            XCTAssertTrue(UI.wait { window.state.title == "Back online" }, "retried when the network came back, with no time passing")
        }
    }

    func testNetworkFailuresAtADeskWaitForTheReader() {
        MainActor.assumeIsolated {
            let probe = TestServer()
            let url = probe.url("/gone")
            probe.stop()
            let window = TestApp.window(sites: [Site(name: "Gone", address: url)])
            defer { TestApp.close(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { window.headerTitle == "Error" })
            XCTAssertTrue(UI.waitForLoad(window))
            XCTAssertFalse(UI.bodyText(window).contains("Trying again"), "no countdown outside kiosk mode")
        }
    }

    func testASelfSignedCertificateShowsAnErrorPageWithNoWayOn() throws {
        try MainActor.assumeIsolated {
            let certificate = try XCTUnwrap(TestCertificate.selfSigned(), "openssl made a certificate")
            defer { g_object_unref(UnsafeMutableRawPointer(certificate)) }
            let server = TestServer(tlsCertificate: certificate)
            defer { server.stop() }
            server.route = { _ in .html(page("Secret intranet")) }
            // A desktop window: certificate errors are refused in every mode.
            let window = TestApp.window(configuration: Configuration(sites: SiteList([Site(name: "Intranet", address: server.url("/"))])))
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { UI.bodyText(window).contains("identity cannot be verified") }, UI.bodyText(window))
            XCTAssertTrue(UI.waitForLoad(window))
            XCTAssertTrue(UI.bodyText(window).contains("not signed by an authority"), UI.bodyText(window))
            let links = UI.evaluate("[...document.querySelectorAll('a')].map(a => a.textContent + '=' + a.getAttribute('href')).join(',')", in: window)
            XCTAssertEqual(links, "Back=porthole://back/,Home=\(server.url("/"))", "Back and Home only: nothing continues to the site")
            XCTAssertEqual(UI.evaluate("document.forms.length + document.querySelectorAll('button,input').length", in: window), "0")
            XCTAssertEqual(server.count(path: "/"), 0, "no request reached the server")
            XCTAssertEqual(window.state.title, "Not secure")
        }
    }

    func testAnAdminsTLSExceptionLetsTheSiteLoad() throws {
        try MainActor.assumeIsolated {
            let certificate = try XCTUnwrap(TestCertificate.selfSigned())
            defer { g_object_unref(UnsafeMutableRawPointer(certificate)) }
            let server = TestServer(tlsCertificate: certificate)
            defer { server.stop() }
            server.route = { _ in .html(page("Secret intranet")) }
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Intranet", address: server.url("/"))]) {
                $0.browser.tlsExceptions = ["127.0.0.1"]
            }
            let window = TestApp.window(configuration: configuration)
            defer { TestApp.destroy(window) }
            let log = EventLog(window)
            window.goHome()
            XCTAssertTrue(UI.wait { window.state.title == "Secret intranet" }, UI.bodyText(window))
            XCTAssertEqual(server.count(path: "/"), 1)
            // The retry starts after the failed load has ended, so that load's end never cancels it
            // ("Operation was cancelled" instead of the page, issue 15).
            XCTAssertFalse(log.events.contains { if case .loadFailed = $0 { return true } else { return false } }, "\(log.events)")
        }
    }
}
