// The next kiosk visitor's view, prepared off screen while the current visitor is idle: when is
// NextVisitorPlan's decision (KioskController runs it); this builds, holds and throws it away.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// A web view on the engine's prepared session (its own context and in-memory data manager),
/// loading the home page outside the window, and what it told while off screen.
@MainActor
final class PreparedVisitor {
    let content: WebContent
    var host: RepresentableHost<WebView>!
    /// The view's notices until it is swapped in; the window hears them then, in order.
    var notices: [PageNotice] = []

    init(content: WebContent) {
        self.content = content
    }
}

extension BrowserWindow {
    /// Builds the next visitor's session off screen: a new context and data manager, a web view
    /// on them that is in no widget tree (the page is hidden to its scripts and paints nothing
    /// until it is shown), the home page loading in it. Nothing in it was seen by the current
    /// visitor: only the user content manager (Porthole's own scripts and style sheets) is shared.
    func prepareNextVisitor() {
        guard window != nil, nextVisitor == nil else { return }
        let prepared = PreparedVisitor(content: WebContent(id: nextContentID, .url(session.homeURL)))
        nextContentID += 1
        var view = makeWebView()
        view.content = prepared.content
        view.forNextVisitor = true
        view.onEvent = { [weak self, weak prepared] notice in
            guard let self, let prepared else { return }
            prepared.notices.append(notice)
            if let event = NextVisitorEvent(preparedView: notice, at: self.wakeUp.now) { self.kioskMode?.nextVisitorChanged(event) }
        }
        nextVisitor = prepared
        prepared.host = RepresentableHost(view)
        Log.info("next visitor's session prepared", fields: ["PORTHOLE_EVENT": "next-visitor-prepared"])
    }

    /// Lets the prepared view go, then its context and data manager (its web process ends).
    func discardNextVisitor() {
        guard let prepared = nextVisitor else { return }
        nextVisitor = nil
        prepared.host?.dismantle()
        engine.discardNextSession()
    }

    /// Whether a view is prepared for the next visitor (tests).
    public var hasPreparedNextVisitor: Bool { nextVisitor != nil }
    /// The prepared view (tests).
    public var preparedWebView: UnsafeMutablePointer<WebKitWebView>? { nextVisitor?.host?.coordinator.view }
}
