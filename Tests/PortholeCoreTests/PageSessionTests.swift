// PageSession as a table: event sequences in, commands out (logs left out unless a row is about them).
import PortholeCore
import XCTest

private let policy = SitePolicy(sites: SiteList([Site(name: "Good", address: "https://good.example/")]))
private let good = "https://good.example/"
private let page = "https://good.example/page"
private let blank = "https://good.example/sub/blank.html"
private let evil = "http://evil.example/nav/X"
private let evilReason = policy.decide(url: evil).reason
private let data = "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="

private func asked(_ id: Int, _ uri: String, _ type: NavigationType = .other, redirect: Bool = false, newWindow: Bool = false,
                   from current: String? = good) -> PageEvent {
    .navigationAsked(id: id, NavigationFacts(uri: uri, type: type, isRedirect: redirect, isNewWindow: newWindow), currentURI: current)
}

private func response(_ id: Int, _ uri: String, main: Bool, canShow: Bool = true) -> PageEvent {
    .responseAsked(id: id, ResponseFacts(uri: uri, isMainFrame: main, canShow: canShow), currentURI: good)
}

private func refusedByPage(_ id: Int, _ uri: String, reason: String = evilReason) -> [PageCommand] {
    [.ignore(id), .notice(.navigationBlocked(uri: uri, reason: reason, shown: false))]
}

private func blockedPage(_ uri: String, reason: String = evilReason, page n: Int = 1) -> [PageCommand] {
    [.show(.blocked(url: uri, reason: reason), uri: "porthole://blocked/\(n)"), .notice(.navigationBlocked(uri: uri, reason: reason, shown: true))]
}

/// A page on `good` that has loaded: the state most rows start from.
private let loaded: [PageEvent] = [.loadRequested(.url(good)), asked(90, good, from: nil), .loadChanged(.started, uri: good),
                                   .loadChanged(.committed, uri: good), .loadChanged(.finished, uri: good)]

/// Porthole's own load of `page`: WebKit asks for a sign-in before the load's start reaches the
/// UI process, withdraws it at that start, and the load ends cancelled with nothing committed.
private let withdrawnAtStart: [PageEvent] = [.loadRequested(.url(page)), asked(1, page, from: nil), .signInWithdrawn,
                                             .loadChanged(.started, uri: page),
                                             .loadFailed(uri: page, failure: .cancelled, message: "Load request cancelled", at: 1)]
/// The load again (started by the session, not asked for) withdrawn the same way, after the last one ended.
private let withdrawnAgain: [PageEvent] = [.loadChanged(.finished, uri: ""), asked(1, page, from: nil), .signInWithdrawn,
                                           .loadChanged(.started, uri: page),
                                           .loadFailed(uri: page, failure: .cancelled, message: "Load request cancelled", at: 1)]

private struct Row {
    let name: String
    var settings = PageSettings(homeURL: "porthole://start/")
    let events: [PageEvent]
    let then: PageEvent
    let expect: [PageCommand]
    var keepLogs = false
}

private func kiosk() -> PageSettings {
    var settings = PageSettings(homeURL: "porthole://start/")
    settings.retriesNetworkFailures = true
    settings.refusesDrops = true
    settings.unresponsiveTimeout = 15
    settings.tlsExceptions = ["self-signed.example"]
    return settings
}

private let dataReason = "blocked: a page cannot open a data: URL as the whole page"
private let downloadReason = "This is a file to download, and this browser does not download files."

private let rows: [Row] = [
    // Porthole's own loads, decided by the policy before and when WebKit asks.
    Row(name: "typed approved address loads", events: [], then: .loadRequested(.url(page)), expect: [.load(page)]),
    Row(name: "typed address is decided again when WebKit asks", events: [.loadRequested(.url(page))], then: asked(1, page, from: nil), expect: [.use(1)]),
    Row(name: "typed blocked address shows the Blocked page under porthole:", events: [], then: .loadRequested(.url(evil)), expect: blockedPage(evil)),
    Row(name: "the Blocked page itself is decided by the policy and allowed", events: [.loadRequested(.url(evil))],
        then: asked(1, "porthole://blocked/1"), expect: [.use(1)]),
    Row(name: "typed javascript: URL never reaches WebKit", events: [], then: .loadRequested(.url("javascript:alert(1)")),
        expect: blockedPage("javascript:alert(1)", reason: policy.decide(url: "javascript:alert(1)").reason)),
    Row(name: "typed restricted port explains itself", events: [], then: .loadRequested(.url("https://good.example:25/")),
        expect: [.show(.error(url: "https://good.example:25/", message: RestrictedPorts.message(port: 25), plain: true), uri: "porthole://error/1"),
                 .notice(.loadFailed(uri: "https://good.example:25/", message: RestrictedPorts.message(port: 25)))]),
    Row(name: "HTML content loads and its about:blank is asked", events: [.loadRequested(.content(baseURI: nil))], then: asked(1, "about:blank"), expect: [.use(1)]),
    Row(name: "content under a blocked base URI is refused when WebKit asks", events: [.loadRequested(.content(baseURI: evil))],
        then: asked(1, evil), expect: [.ignore(1)] + blockedPage(evil)),
    Row(name: "an unusable file path shows the error page", events: [], then: .loadRequested(.unusableFile(path: "/nul\u{1}")),
        expect: [.show(.error(url: "/nul\u{1}", message: "Not a usable file path.", plain: true), uri: "porthole://error/1"),
                 .notice(.loadFailed(uri: "/nul\u{1}", message: "Not a usable file path."))]),
    Row(name: "Home loads the start page", events: [], then: .loadRequested(.url("porthole://start/")), expect: [.load("porthole://start/")]),
    Row(name: "own page load committed is not a real load", events: [.loadRequested(.url(evil)), asked(1, "porthole://blocked/1")],
        then: .loadChanged(.committed, uri: "porthole://blocked/1"), expect: []),

    // Attack class 1: frames racing a load Porthole asked for never take its place.
    Row(name: "window.open of an approved page becomes a load here", events: loaded, then: .windowRequested(uri: blank, currentURI: good), expect: [.load(blank)]),
    Row(name: "a frame asked before the window.open load is the page's own", events: loaded + [.windowRequested(uri: blank, currentURI: good)],
        then: asked(1, evil), expect: refusedByPage(1, evil)),
    Row(name: "four frames then the load, then a script navigation (issue 9 attack 1)",
        events: loaded + [.windowRequested(uri: blank, currentURI: good), asked(1, evil), asked(2, evil), asked(3, evil), asked(4, evil), asked(5, blank)],
        then: asked(6, evil), expect: refusedByPage(6, evil)),
    Row(name: "after the Blocked page was asked for, a frame to the refused URL is still refused",
        events: loaded + [.loadRequested(.url(evil))], then: asked(1, evil), expect: refusedByPage(1, evil)),
    Row(name: "the Blocked page abandoned (Stay on Page) leaves no shortcut",
        events: loaded + [.loadRequested(.url(evil)), asked(1, "porthole://blocked/1"), .loadFailed(uri: "porthole://blocked/1", failure: .cancelled, message: "", at: 1)],
        then: asked(2, evil), expect: refusedByPage(2, evil)),
    Row(name: "target=_blank to an approved page loads here", events: loaded, then: asked(1, page, newWindow: true), expect: [.ignore(1), .load(page)]),
    Row(name: "target=_blank to a blocked page is refused", events: loaded, then: asked(1, evil, newWindow: true), expect: refusedByPage(1, evil)),
    Row(name: "window.open() without a URL shows nothing", events: loaded, then: .windowRequested(uri: "about:blank", currentURI: good), expect: []),
    Row(name: "a page's link to a blocked host is refused and the page stays", events: loaded, then: asked(1, evil, .linkClicked), expect: refusedByPage(1, evil)),
    Row(name: "a page's link to an approved page is allowed", events: loaded, then: asked(1, page, .linkClicked), expect: [.use(1)]),

    // A frame navigation interleaved with each kind of own load.
    Row(name: "frame between typed load and its decision", events: loaded + [.loadRequested(.url(page)), asked(1, evil)],
        then: asked(2, page), expect: [.use(2)]),
    Row(name: "a frame to a blocked host during a typed load is refused", events: loaded + [.loadRequested(.url(page))],
        then: asked(1, evil), expect: refusedByPage(1, evil)),
    Row(name: "frame between Home and its decision", events: loaded + [.loadRequested(.url("porthole://start/")), asked(1, evil)],
        then: asked(2, "porthole://start/"), expect: [.use(2)]),
    Row(name: "frame between Reload and its decision", events: loaded + [.reloadRequested(currentURI: good), asked(1, evil, .reload)],
        then: asked(2, good, .reload), expect: [.use(2)]),
    Row(name: "a frame's reload is the page's, not Porthole's", events: loaded + [.reloadRequested(currentURI: good)],
        then: asked(1, evil, .reload), expect: refusedByPage(1, evil)),
    Row(name: "frame between Back and its decision", events: loaded + [.historyRequested(.back, targetURI: page), asked(1, evil, .backForward)],
        then: asked(2, page, .backForward), expect: [.use(2)]),
    Row(name: "frame between Forward and its decision", events: loaded + [.historyRequested(.forward, targetURI: page), asked(1, evil)],
        then: asked(2, page, .backForward), expect: [.use(2)]),
    Row(name: "frame between a new-window load and its decision", events: loaded + [.windowRequested(uri: blank, currentURI: good), asked(1, evil)],
        then: asked(2, blank), expect: [.use(2)]),
    Row(name: "frame between content load and its decision", events: loaded + [.loadRequested(.content(baseURI: nil)), asked(1, evil)],
        then: asked(2, "about:blank"), expect: [.use(2)]),
    Row(name: "frame between the Blocked page and its decision", events: loaded + [.loadRequested(.url(evil)), asked(1, evil)],
        then: asked(2, "porthole://blocked/1"), expect: [.use(2)]),

    // Attack class 2: data: documents never run top-level.
    Row(name: "a dropped data: URL is refused with the Blocked page", events: loaded, then: .dropped(data),
        expect: blockedPage(data, reason: "blocked: dropped data: URLs are refused")),
    Row(name: "in kiosk mode every drop is refused", settings: kiosk(), events: loaded, then: .dropped(page), expect: [.notice(.refused("drop"))]),
    Row(name: "in kiosk mode a dropped data: URL is refused", settings: kiosk(), events: loaded, then: .dropped(data), expect: [.notice(.refused("drop"))]),
    Row(name: "a dropped approved URL loads like a typed one", events: loaded, then: .dropped(page + "\r\n"), expect: [.load(page)]),
    Row(name: "a dropped blocked URL shows the Blocked page", events: loaded, then: .dropped(evil), expect: blockedPage(evil)),
    Row(name: "dropped plain text is not an address", events: loaded, then: .dropped("hello there"), expect: [.notice(.refused("drop"))]),
    Row(name: "a data: frame of an approved page is allowed", events: loaded, then: asked(1, data), expect: [.use(1)]),
    Row(name: "a data: document as the main frame is refused at response time", events: loaded + [asked(1, data)],
        then: response(2, data, main: true), expect: [.ignore(2)]),
    Row(name: "the refused data: document is explained when WebKit abandons the load", events: loaded + [asked(1, data), response(2, data, main: true)],
        then: .loadFailed(uri: data, failure: .interruptedByPolicy, message: "", at: 1), expect: blockedPage(data, reason: dataReason)),
    Row(name: "a data: frame's response is allowed", events: loaded + [asked(1, data)], then: response(2, data, main: false), expect: [.use(2)]),
    Row(name: "a top-level data: document WebKit committed without asking is stopped", events: loaded + [asked(1, data)],
        then: .loadChanged(.committed, uri: data),
        expect: [.stop, .show(.blocked(url: data, reason: dataReason), uri: "porthole://blocked/1")]),
    Row(name: "a typed data: URL is refused by the policy", events: [], then: .loadRequested(.url(data)),
        expect: blockedPage(data, reason: policy.decide(url: data).reason)),
    Row(name: "a data: frame of a blocked page is refused", events: [], then: asked(1, data, from: evil),
        expect: refusedByPage(1, data, reason: policy.decide(PolicyRequest(url: data, kind: .subframe, sourceURL: evil)).reason)),

    // Redirects: WebKit reports 301, 302, 303, 307 and 308 alike (is_redirect); each is decided.
    Row(name: "301 to a blocked host is refused", events: loaded + [.loadRequested(.url(page)), asked(1, page, from: nil)],
        then: asked(2, evil, redirect: true), expect: refusedByPage(2, evil)),
    Row(name: "302 to a blocked host is refused", events: loaded + [asked(1, page, .linkClicked)], then: asked(2, evil, redirect: true), expect: refusedByPage(2, evil)),
    // Reloading the result of a POST: the visitor is asked before the form is sent again.
    Row(name: "reloading a form's result asks before sending it again", events: loaded + [asked(1, page, .formSubmitted)],
        then: asked(2, page, .formResubmitted), expect: [.askBeforeResubmitting(id: 2)]),
    Row(name: "send again: the form goes, decided by the policy",
        events: loaded + [asked(1, page, .formResubmitted)], then: .resubmitAnswered(id: 1, resend: true), expect: [.use(1)]),
    Row(name: "do not send again: the decision is refused",
        events: loaded + [asked(1, page, .formResubmitted)], then: .resubmitAnswered(id: 1, resend: false), expect: [.ignore(1)]),
    Row(name: "send again to a host no longer approved shows the Blocked page",
        events: loaded + [asked(1, evil, .formResubmitted)], then: .resubmitAnswered(id: 1, resend: true),
        expect: [.ignore(1)] + blockedPage(evil)),
    Row(name: "an answer to no pending question does nothing",
        events: loaded + [asked(1, page, .formResubmitted), .resubmitAnswered(id: 1, resend: false)],
        then: .resubmitAnswered(id: 1, resend: true), expect: []),
    Row(name: "a second resubmission refuses the unanswered first",
        events: loaded + [asked(1, page, .formResubmitted)], then: asked(2, page, .formResubmitted),
        expect: [.ignore(1), .askBeforeResubmitting(id: 2)]),
    Row(name: "303 after a form to a blocked host is refused", events: loaded + [asked(1, page, .formSubmitted)],
        then: asked(2, evil, .formSubmitted, redirect: true), expect: refusedByPage(2, evil)),
    Row(name: "307 to a blocked host is refused", events: loaded, then: asked(1, evil, redirect: true), expect: refusedByPage(1, evil)),
    Row(name: "308 to a blocked host is refused", events: loaded, then: asked(1, evil, .linkClicked, redirect: true), expect: refusedByPage(1, evil)),
    Row(name: "301 within the approved site is allowed", events: loaded, then: asked(1, page, redirect: true), expect: [.use(1)]),
    Row(name: "302 to data: is refused outright", events: loaded, then: asked(1, data, redirect: true),
        expect: refusedByPage(1, data, reason: "blocked: redirects to data: URLs are refused")),
    Row(name: "307 to file: is refused", events: loaded, then: asked(1, "file:///etc/passwd", redirect: true),
        expect: refusedByPage(1, "file:///etc/passwd", reason: policy.decide(url: "file:///etc/passwd").reason)),
    Row(name: "a redirect matching the typed URL is not taken for the typed load", events: [.loadRequested(.url(page))],
        then: asked(1, page, redirect: true), expect: [.use(1)]),
    Row(name: "a refused redirect of the main frame is explained with the Blocked page",
        events: loaded + [.loadRequested(.url(page)), asked(1, page, from: nil), asked(2, evil, redirect: true)],
        then: .loadFailed(uri: evil, failure: .interruptedByPolicy, message: "", at: 1), expect: blockedPage(evil)),

    // Responses are checked by their URL too.
    Row(name: "a main-frame response from a blocked URL is refused", events: loaded, then: response(1, evil, main: true), expect: [.ignore(1)]),
    Row(name: "a frame's response from a blocked URL is refused", events: loaded, then: response(1, evil, main: false), expect: refusedByPage(1, evil)),
    Row(name: "a download from an allowed site gets its own page, not the Blocked page", events: loaded + [response(1, page + ".zip", main: true, canShow: false)],
        then: .loadFailed(uri: page + ".zip", failure: .interruptedByPolicy, message: "", at: 1), expect: [.show(.download(url: page + ".zip"), uri: "porthole://download/1"),
                 .notice(.navigationBlocked(uri: page + ".zip", reason: downloadReason, shown: true))]),
    Row(name: "an approved response is used", events: loaded, then: response(1, page, main: true), expect: [.use(1)]),

    // Porthole's pages, then Back.
    Row(name: "Blocked page then Back goes back", events: loaded + [.loadRequested(.url(evil)), asked(1, "porthole://blocked/1"),
                                                                 .loadChanged(.committed, uri: "porthole://blocked/1")],
        then: .historyRequested(.back, targetURI: good), expect: [.goBack]),
    Row(name: "Back from the Blocked page is decided and allowed", events: loaded + [.loadRequested(.url(evil)), .historyRequested(.back, targetURI: good)],
        then: asked(1, good, .backForward), expect: [.use(1)]),
    Row(name: "the Blocked page's Back link goes back", events: loaded, then: asked(1, PortholePage.backURL, .linkClicked), expect: [.ignore(1), .goBack]),
    Row(name: "a failed load shows the error page", events: loaded, then: .loadFailed(uri: page, failure: .other, message: "Not Found", at: 1),
        expect: [.show(.error(url: page, message: "Not Found"), uri: "porthole://error/1"), .notice(.loadFailed(uri: page, message: "Not Found"))]),
    Row(name: "Reload on the error page tries the URL again", events: loaded + [.loadFailed(uri: page, failure: .other, message: "x", at: 1)],
        then: .reloadRequested(currentURI: "porthole://error/1"), expect: [.load(page)]),
    // The error page's Retry link: WebKit starts the load while the view still names the error
    // page (issue 23: the header stayed "Error" after a successful Retry).
    Row(name: "a load started from the error page is told as started when it commits",
        events: loaded + [.loadRequested(.url(page)), asked(2, page, from: nil), .loadChanged(.started, uri: page),
                          .loadFailed(uri: page, failure: .other, message: "x", at: 1), .loadChanged(.finished, uri: page),
                          .loadChanged(.committed, uri: "porthole://error/1"),
                          .loadChanged(.finished, uri: "porthole://error/1"), asked(1, page, .linkClicked, from: "porthole://error/1"),
                          .loadChanged(.started, uri: "porthole://error/1")],
        then: .loadChanged(.committed, uri: page), expect: [.notice(.loadStarted), .notice(.loadCommitted(uri: page))]),
    Row(name: "a load whose start was told is not told twice",
        events: [.loadRequested(.url(good)), asked(90, good, from: nil), .loadChanged(.started, uri: good)],
        then: .loadChanged(.committed, uri: good), expect: [.notice(.loadCommitted(uri: good))]),
    Row(name: "error page then Back", events: loaded + [.loadFailed(uri: page, failure: .other, message: "x", at: 1)],
        then: .historyRequested(.back, targetURI: good), expect: [.goBack]),
    Row(name: "a cancelled load shows nothing", events: loaded, then: .loadFailed(uri: page, failure: .cancelled, message: "", at: 1), expect: []),
    Row(name: "a Porthole page that fails shows no other page", events: loaded,
        then: .loadFailed(uri: "porthole://blocked/7", failure: .other, message: "x", at: 1),
        expect: [.show(.error(url: "porthole://blocked/7", message: "x"), uri: "porthole://error/1"), .notice(.loadFailed(uri: "porthole://blocked/7", message: "x"))]),

    // Crash back-off: at once, then 1 s, 2 s …, counted from the last crash.
    Row(name: "a crash reloads the page at once", events: loaded, then: .processTerminated(.crashed, at: 100),
        expect: [.notice(.webProcessTerminated), .load(good)]),
    Row(name: "a second crash soon after waits a second with the countdown",
        events: loaded + [.processTerminated(.crashed, at: 100), asked(1, good, from: nil), .loadChanged(.committed, uri: good), .loadChanged(.finished, uri: good)],
        then: .processTerminated(.crashed, at: 102),
        expect: [.notice(.webProcessTerminated), .show(.crashed(url: good, seconds: 1), uri: "porthole://crashed/1"), .wake(at: 103)]),
    Row(name: "the countdown's end reloads",
        events: loaded + [.processTerminated(.crashed, at: 100), .loadChanged(.committed, uri: good), .loadChanged(.finished, uri: good),
                          .processTerminated(.crashed, at: 102)],
        then: .tick(103), expect: [.load(good), .wake(at: nil)]),
    Row(name: "crashes a minute apart reload at once",
        events: loaded + [.processTerminated(.crashed, at: 100), .loadChanged(.committed, uri: good), .loadChanged(.finished, uri: good)],
        then: .processTerminated(.crashed, at: 163), expect: [.notice(.webProcessTerminated), .load(good)]),
    Row(name: "the countdown page crashing does not extend the wait",
        events: loaded + [.processTerminated(.crashed, at: 100), .loadChanged(.committed, uri: good), .loadChanged(.finished, uri: good),
                          .processTerminated(.crashed, at: 101), .loadChanged(.committed, uri: "porthole://crashed/1")],
        then: .processTerminated(.crashed, at: 101.5),
        expect: [.notice(.webProcessTerminated), .show(.crashed(url: good, seconds: 1), uri: "porthole://crashed/2")]),
    Row(name: "the countdown line counts down",
        events: loaded + [.processTerminated(.crashed, at: 100), .loadChanged(.committed, uri: good), .loadChanged(.finished, uri: good),
                          .processTerminated(.crashed, at: 101), .loadChanged(.committed, uri: good), .loadChanged(.finished, uri: good),
                          .processTerminated(.crashed, at: 103)],
        then: .tick(104), expect: [.updateCountdown("Reloading in 1 second."), .wake(at: 105)]),
    Row(name: "a URL whose load crashed twice in a row is not reloaded again",
        events: loaded + [.loadRequested(.url(page)), asked(1, page, from: nil), .loadChanged(.started, uri: page), .processTerminated(.crashed, at: 100),
                          asked(2, page, from: nil), .loadChanged(.started, uri: page)],
        then: .processTerminated(.crashed, at: 101),
        expect: [.notice(.webProcessTerminated), .show(.crashLoop(url: page), uri: "porthole://crashed/1")]),
    Row(name: "a load that ended without committing does not end the run of crashes",
        events: loaded + [.loadRequested(.url(page)), .loadChanged(.started, uri: page), .processTerminated(.crashed, at: 100),
                          .loadChanged(.finished, uri: page), .loadChanged(.started, uri: page)],
        then: .processTerminated(.crashed, at: 101),
        expect: [.notice(.webProcessTerminated), .show(.crashLoop(url: page), uri: "porthole://crashed/1")]),
    Row(name: "a load that committed in between starts the count again",
        events: loaded + [.loadRequested(.url(page)), .loadChanged(.started, uri: page), .processTerminated(.crashed, at: 100),
                          .loadChanged(.started, uri: page), .loadChanged(.committed, uri: page), .loadChanged(.finished, uri: page),
                          .loadRequested(.url(page)), .loadChanged(.started, uri: page)],
        then: .processTerminated(.crashed, at: 200), expect: [.notice(.webProcessTerminated), .load(page)]),
    Row(name: "a load that crashed once is tried again", events: loaded + [.loadRequested(.url(page)), .loadChanged(.started, uri: page)],
        then: .processTerminated(.crashed, at: 100), expect: [.notice(.webProcessTerminated), .load(page)]),
    Row(name: "a crash logs why", events: loaded, then: .processTerminated(.exceededMemoryLimit, at: 100),
        expect: [.log(PageLog(.message, "web process ended (exceeded-memory-limit): \(good)",
                              ["PORTHOLE_EVENT": "web-process-terminated", "PORTHOLE_URL": good, "PORTHOLE_REASON": "exceeded-memory-limit"])),
                 .notice(.webProcessTerminated),
                 .log(PageLog(.message, "reloading after the web process ended, in 0 s: \(good)",
                              ["PORTHOLE_EVENT": "crash-recovery", "PORTHOLE_URL": good, "PORTHOLE_DELAY": "0"])),
                 .load(good)], keepLogs: true),

    // Network failures: kiosk retries by itself, sooner when the network comes back.
    Row(name: "kiosk network failure counts down to a retry", settings: kiosk(), events: loaded,
        then: .loadFailed(uri: page, failure: .network, message: "Could not connect", at: 50),
        expect: [.show(.retrying(url: page, message: "Could not connect", seconds: 1), uri: "porthole://retrying/1"),
                 .notice(.loadFailed(uri: page, message: "Could not connect")), .wake(at: 51)]),
    Row(name: "the retry comes when the countdown ends", settings: kiosk(), events: loaded + [.loadFailed(uri: page, failure: .network, message: "x", at: 50)],
        then: .tick(51), expect: [.load(page), .wake(at: nil)]),
    Row(name: "the retry comes at once when the network is back", settings: kiosk(), events: loaded + [.loadFailed(uri: page, failure: .network, message: "x", at: 50)],
        then: .networkChanged(available: true), expect: [.load(page), .wake(at: nil)]),
    Row(name: "a second network failure waits longer", settings: kiosk(),
        events: loaded + [.loadFailed(uri: page, failure: .network, message: "x", at: 50), .tick(51)],
        then: .loadFailed(uri: page, failure: .network, message: "x", at: 51),
        expect: [.show(.retrying(url: page, message: "x", seconds: 2), uri: "porthole://retrying/2"), .notice(.loadFailed(uri: page, message: "x")), .wake(at: 52)]),
    Row(name: "at a desk a network failure waits for its reader", events: loaded, then: .loadFailed(uri: page, failure: .network, message: "x", at: 50),
        expect: [.show(.error(url: page, message: "x"), uri: "porthole://error/1"), .notice(.loadFailed(uri: page, message: "x"))]),
    Row(name: "a real page replacing the countdown cancels the retry", settings: kiosk(),
        events: loaded + [.loadFailed(uri: page, failure: .network, message: "x", at: 50)],
        then: .loadChanged(.committed, uri: good), expect: [.notice(.loadStarted), .notice(.loadCommitted(uri: good)), .wake(at: nil)]),

    // A hung page is ended and recovered as from a crash.
    Row(name: "an unresponsive page is watched", settings: kiosk(), events: loaded, then: .responsivenessChanged(false, at: 200), expect: [.wake(at: 215)]),
    Row(name: "an unresponsive page is ended after the timeout", settings: kiosk(), events: loaded + [.responsivenessChanged(false, at: 200)],
        then: .tick(215), expect: [.notice(.webProcessHung), .terminateWebProcess, .wake(at: nil)]),
    Row(name: "a page that responds again is left alone", settings: kiosk(), events: loaded + [.responsivenessChanged(false, at: 200), .responsivenessChanged(true, at: 205)],
        then: .tick(215), expect: []),
    Row(name: "the ended page comes back as after a crash", settings: kiosk(), events: loaded + [.responsivenessChanged(false, at: 200), .tick(215)],
        then: .processTerminated(.terminatedByAPI, at: 215), expect: [.notice(.webProcessTerminated), .load(good)]),
    Row(name: "at a desk without a timeout nothing is ended", events: loaded, then: .responsivenessChanged(false, at: 200), expect: []),
    // A page nobody touches is asked for an answer every 5 s; no answer within the timeout ends it.
    Row(name: "a committed page is asked for an answer after 5 s", settings: kiosk(), events: loaded,
        then: .pageWatchStarted(at: 100), expect: [.wake(at: 105)]),
    Row(name: "the question goes out when it is due", settings: kiosk(), events: loaded + [.pageWatchStarted(at: 100)],
        then: .tick(105), expect: [.askPage(id: 1), .wake(at: 120)]),
    Row(name: "an answer schedules the next question", settings: kiosk(), events: loaded + [.pageWatchStarted(at: 100), .tick(105)],
        then: .pageAnswered(id: 1, at: 105.01), expect: [.wake(at: 110.01)]),
    Row(name: "a page that does not answer within the timeout is ended", settings: kiosk(), events: loaded + [.pageWatchStarted(at: 100), .tick(105)],
        then: .tick(120), expect: [.notice(.webProcessHung), .terminateWebProcess, .wake(at: nil)]),
    Row(name: "a stale answer does not count", settings: kiosk(),
        events: loaded + [.pageWatchStarted(at: 100), .tick(105), .pageAnswered(id: 1, at: 106), .tick(110.01)],
        then: .pageAnswered(id: 1, at: 111), expect: []),
    Row(name: "the page ended for not answering comes back as after a crash", settings: kiosk(),
        events: loaded + [.pageWatchStarted(at: 100), .tick(105), .tick(120)],
        then: .processTerminated(.terminatedByAPI, at: 120), expect: [.notice(.webProcessTerminated), .load(good)]),
    Row(name: "at a desk without a timeout no question is asked", events: loaded, then: .pageWatchStarted(at: 100), expect: []),
    // Terminations Porthole caused get the crash loop's guard (an alert() loop hangs again at once).
    Row(name: "a page ended twice in a row for hanging is not brought back again", settings: kiosk(),
        events: loaded + [.responsivenessChanged(false, at: 200), .tick(215), .processTerminated(.terminatedByAPI, at: 215),
                          asked(1, good, from: nil), .loadChanged(.committed, uri: good), .loadChanged(.finished, uri: good),
                          .responsivenessChanged(false, at: 216), .tick(231)],
        then: .processTerminated(.terminatedByAPI, at: 231),
        expect: [.notice(.webProcessTerminated), .show(.hangLoop(url: good), uri: "porthole://crashed/1")]),
    Row(name: "a hang long after the last is brought back", settings: kiosk(),
        events: loaded + [.responsivenessChanged(false, at: 200), .tick(215), .processTerminated(.terminatedByAPI, at: 215),
                          asked(1, good, from: nil), .loadChanged(.committed, uri: good), .loadChanged(.finished, uri: good),
                          .responsivenessChanged(false, at: 900), .tick(915)],
        then: .processTerminated(.terminatedByAPI, at: 915), expect: [.notice(.webProcessTerminated), .load(good)]),
    Row(name: "another page in between ends the run of hangs", settings: kiosk(),
        events: loaded + [.responsivenessChanged(false, at: 200), .tick(215), .processTerminated(.terminatedByAPI, at: 215),
                          .loadChanged(.committed, uri: page), .loadChanged(.finished, uri: page),
                          .loadChanged(.committed, uri: good), .loadChanged(.finished, uri: good),
                          .responsivenessChanged(false, at: 216), .tick(231)],
        then: .processTerminated(.terminatedByAPI, at: 231), expect: [.notice(.webProcessTerminated), .show(.crashed(url: good, seconds: 1), uri: "porthole://crashed/1"), .wake(at: 232)]),
    Row(name: "a crash after a hang is a crash, reloaded", settings: kiosk(),
        events: loaded + [.responsivenessChanged(false, at: 200), .tick(215), .processTerminated(.terminatedByAPI, at: 215),
                          asked(1, good, from: nil), .loadChanged(.committed, uri: good), .loadChanged(.finished, uri: good)],
        then: .processTerminated(.crashed, at: 900), expect: [.notice(.webProcessTerminated), .load(good)]),

    // Certificates: only the admin's exceptions, and the retry waits for the failed load to end.
    Row(name: "an exception host's certificate is accepted", settings: kiosk(), events: [],
        then: .certificateFailed(uri: "https://self-signed.example/", problems: ["x"], acceptedHosts: []),
        expect: [.acceptCertificate(host: "self-signed.example")]),
    Row(name: "the accepted site loads once the failed load has finished and the exception is held", settings: kiosk(),
        events: [.certificateFailed(uri: "https://self-signed.example/", problems: ["x"], acceptedHosts: []),
                 .certificateAccepted(host: "self-signed.example")],
        then: .loadChanged(.finished, uri: "https://self-signed.example/"), expect: [.notice(.loadFinished), .load("https://self-signed.example/")]),
    Row(name: "the failed load's end alone does not start the retry (the exception may not be held yet)", settings: kiosk(),
        events: [.certificateFailed(uri: "https://self-signed.example/", problems: ["x"], acceptedHosts: [])],
        then: .loadChanged(.finished, uri: "https://self-signed.example/"), expect: [.notice(.loadFinished)]),
    Row(name: "the exception held after the failed load ended starts the retry", settings: kiosk(),
        events: [.certificateFailed(uri: "https://self-signed.example/", problems: ["x"], acceptedHosts: []),
                 .loadChanged(.finished, uri: "https://self-signed.example/")],
        then: .certificateAccepted(host: "self-signed.example"), expect: [.load("https://self-signed.example/")]),
    Row(name: "another host's exception does not start the retry", settings: kiosk(),
        events: [.certificateFailed(uri: "https://self-signed.example/", problems: ["x"], acceptedHosts: []),
                 .loadChanged(.finished, uri: "https://self-signed.example/")],
        then: .certificateAccepted(host: "other.example"), expect: []),
    Row(name: "the exception held before the failed load ended waits for its end", settings: kiosk(),
        events: [.certificateFailed(uri: "https://self-signed.example/", problems: ["x"], acceptedHosts: [])],
        then: .certificateAccepted(host: "self-signed.example"), expect: []),
    Row(name: "a retry the old load cancelled is started again", settings: kiosk(),
        events: [.certificateFailed(uri: "https://self-signed.example/", problems: ["x"], acceptedHosts: []),
                 .certificateAccepted(host: "self-signed.example"), .loadChanged(.finished, uri: ""),
                 .loadFailed(uri: "https://self-signed.example/", failure: .cancelled, message: "Operation was cancelled", at: 1)],
        then: .loadChanged(.finished, uri: ""), expect: [.notice(.loadFinished), .load("https://self-signed.example/")]),
    Row(name: "a certificate that fails again after acceptance shows the page", settings: kiosk(), events: [],
        then: .certificateFailed(uri: "https://self-signed.example/", problems: ["x"], acceptedHosts: ["self-signed.example"]),
        expect: [.show(.certificate(url: "https://self-signed.example/", problems: ["x"]), uri: "porthole://certificate/1"),
                 .notice(.loadFailed(uri: "https://self-signed.example/", message: "x"))]),
    // A sign-in WebKit withdrew as its own load started (its question reached the UI process
    // before the web process's start): a load of Porthole's own is loaded again once it has ended.
    Row(name: "a home page whose sign-in WebKit withdrew at its start is loaded again when it ends",
        events: withdrawnAtStart, then: .loadChanged(.finished, uri: ""), expect: [.notice(.loadFinished), .load(page)]),
    Row(name: "the withdrawn sign-in's load again is logged with its attempt",
        events: Array(withdrawnAtStart.dropLast()), then: withdrawnAtStart.last!,
        expect: [.log(PageLog(.message, "WebKit withdrew the sign-in of \(page) as its load started; loading it again (1 of 3)",
                              ["PORTHOLE_EVENT": "sign-in-retry", "PORTHOLE_URL": page, "PORTHOLE_ATTEMPT": "1"]))], keepLogs: true),
    Row(name: "the load again is decided by the policy again", events: withdrawnAtStart,
        then: asked(2, page, from: nil), expect: [.use(2)]),
    Row(name: "a cancelled load with no withdrawn sign-in is not loaded again",
        events: [.loadRequested(.url(page)), asked(1, page, from: nil), .loadChanged(.started, uri: page),
                 .loadFailed(uri: page, failure: .cancelled, message: "Load request cancelled", at: 1)],
        then: .loadChanged(.finished, uri: ""), expect: [.notice(.loadFinished)]),
    Row(name: "Stop while the sign-in is asked is not undone",
        events: [.loadRequested(.url(page)), asked(1, page, from: nil), .loadChanged(.started, uri: page), .stopRequested,
                 .signInWithdrawn, .loadFailed(uri: page, failure: .cancelled, message: "Load request cancelled", at: 1)],
        then: .loadChanged(.finished, uri: ""), expect: [.notice(.loadFinished)]),
    Row(name: "Stop is WebKit's stop", events: [], then: .stopRequested, expect: [.stop]),
    Row(name: "a newer load of the same address replaces the asked one: it is not loaded twice",
        events: [.loadRequested(.url(page)), asked(1, page, from: nil), .loadChanged(.started, uri: page), .loadRequested(.url(page)),
                 .signInWithdrawn, .loadFailed(uri: page, failure: .cancelled, message: "Load request cancelled", at: 1)],
        then: .loadChanged(.finished, uri: ""), expect: [.notice(.loadFinished)]),
    Row(name: "a page's navigation away from the asked load is not undone",
        events: loaded + [asked(1, page, .linkClicked), .loadChanged(.started, uri: page), asked(2, blank, .linkClicked),
                          .signInWithdrawn, .loadFailed(uri: page, failure: .cancelled, message: "Load request cancelled", at: 1)],
        then: .loadChanged(.finished, uri: good), expect: [.notice(.loadFinished)]),
    Row(name: "a link the page followed is not loaded again (its form or referrer would change)",
        events: loaded + [asked(1, page, .linkClicked), .signInWithdrawn, .loadChanged(.started, uri: page),
                          .loadFailed(uri: page, failure: .cancelled, message: "Load request cancelled", at: 1)],
        then: .loadChanged(.finished, uri: good), expect: [.notice(.loadFinished)]),
    Row(name: "a form sent to the address of Porthole's last own load is not loaded again (it would be a GET)",
        events: withdrawnAtStart + [.loadChanged(.finished, uri: ""), asked(2, page, from: nil), .loadChanged(.started, uri: page),
                                    .loadChanged(.committed, uri: page), .loadChanged(.finished, uri: page),
                                    asked(3, page, .formSubmitted, from: page), .signInWithdrawn, .loadChanged(.started, uri: page),
                                    .loadFailed(uri: page, failure: .cancelled, message: "Load request cancelled", at: 1)],
        then: .loadChanged(.finished, uri: page), expect: [.notice(.loadFinished)]),
    Row(name: "a withdrawal at a load's end (a frame's sign-in) leaves the next cancelled load alone",
        events: loaded + [.signInWithdrawn, .loadChanged(.finished, uri: good), .loadRequested(.url(page)), asked(1, page, from: good),
                          .loadChanged(.started, uri: page), .loadFailed(uri: page, failure: .cancelled, message: "Load request cancelled", at: 1)],
        then: .loadChanged(.finished, uri: good), expect: [.notice(.loadFinished)]),
    Row(name: "an address is loaded again three times at most", events: withdrawnAtStart + withdrawnAgain + withdrawnAgain + withdrawnAgain,
        then: .loadChanged(.finished, uri: ""), expect: [.notice(.loadFinished)]),
    Row(name: "the third load again is still made", events: withdrawnAtStart + withdrawnAgain + withdrawnAgain,
        then: .loadChanged(.finished, uri: ""), expect: [.notice(.loadFinished), .load(page)]),
    Row(name: "the visitor asking again starts the count again",
        events: withdrawnAtStart + withdrawnAgain + withdrawnAgain + withdrawnAgain + [.loadChanged(.finished, uri: "")] + withdrawnAtStart,
        then: .loadChanged(.finished, uri: ""), expect: [.notice(.loadFinished), .load(page)]),
    Row(name: "other hosts' certificate errors show the page", events: [],
        then: .certificateFailed(uri: "https://other.example/", problems: ["x"], acceptedHosts: []),
        expect: [.show(.certificate(url: "https://other.example/", problems: ["x"]), uri: "porthole://certificate/1"),
                 .notice(.loadFailed(uri: "https://other.example/", message: "x"))]),
]

final class PageSessionTests: XCTestCase {
    func testPageSessionTable() {
        XCTAssertGreaterThanOrEqual(rows.count, 50)
        for row in rows {
            var session = PageSession(settings: row.settings) { policy.decide($0) }
            for event in row.events { _ = session.handle(event) }
            let commands = session.handle(row.then).filter { command in
                if case .log = command { return row.keepLogs }
                return true
            }
            XCTAssertEqual(commands, row.expect, row.name)
        }
    }

    func testRefusalsAreLoggedWithStructuredFields() {
        var session = PageSession { policy.decide($0) }
        let commands = session.handle(asked(1, evil))
        XCTAssertTrue(commands.contains(.log(PageLog(.message, "blocked \(evil): \(evilReason)",
                                                     ["PORTHOLE_EVENT": "navigation-blocked", "PORTHOLE_URL": evil,
                                                      "PORTHOLE_FRAME": "page-initiated", "PORTHOLE_REASON": evilReason]))))
    }

    /// The session is the one owner of what the view shows: the window's header and the status
    /// read `shown`, row by row through a visit.
    func testTheSessionKeepsWhatTheViewShows() {
        var session = PageSession(settings: PageSettings(homeURL: "porthole://start/")) { policy.decide($0) }
        let rows: [(PageEvent, ShownPage, UInt)] = [
            (.loadRequested(.url(good)), ShownPage(), #line),
            (.uriChanged(good), ShownPage(uri: good), #line),
            (.loadChanged(.started, uri: good), ShownPage(uri: good), #line),
            (.loadChanged(.committed, uri: good), ShownPage(uri: good, url: good), #line),
            (.loadFailed(uri: page, failure: .network, message: "gone", at: 1), ShownPage(uri: good, url: page, isErrorPage: true), #line),
            (.uriChanged("porthole://error/1"), ShownPage(uri: "porthole://error/1", url: page, isErrorPage: true), #line),
            (.loadChanged(.committed, uri: "porthole://error/1"), ShownPage(uri: "porthole://error/1", url: page, isErrorPage: true), #line),
            (.loadRequested(.url(evil)), ShownPage(uri: "porthole://error/1", url: evil), #line),
            (.uriChanged("porthole://blocked/2"), ShownPage(uri: "porthole://blocked/2", url: evil), #line),
            (.loadChanged(.committed, uri: "porthole://blocked/2"), ShownPage(uri: "porthole://blocked/2", url: evil), #line),
        ]
        for (event, expected, line) in rows {
            _ = session.handle(event)
            XCTAssertEqual(session.shown, expected, "\(event)", line: line)
        }
    }

    func testPagesOfDifferentViewsHaveDifferentURLs() {
        var settings = PageSettings()
        settings.pageTag = "2-"
        var session = PageSession(settings: settings) { policy.decide($0) }
        XCTAssertEqual(session.handle(.loadRequested(.url(evil))).dropFirst().first, .show(.blocked(url: evil, reason: evilReason), uri: "porthole://blocked/2-1"))
    }
}
