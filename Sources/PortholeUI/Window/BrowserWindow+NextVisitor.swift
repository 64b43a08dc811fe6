// The next kiosk visitor's view, prepared out of sight while the current visitor is idle: when is
// NextVisitorPlan's decision (KioskController runs it); this builds, holds and throws it away.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// A web view on the engine's prepared session (its own context and in-memory data manager),
/// loading the home page beneath the current view, and what it told until it was swapped in.
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
    /// Builds the next visitor's session out of sight: a new context and data manager, a web view
    /// on them beneath the current one, the home page loading in it. Nothing in it was seen by
    /// the current visitor: only the user content manager (Porthole's own scripts and style
    /// sheets) is shared. Its page counts as visible to its own scripts (it is painted).
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
        let web = prepared.host.widget!
        // Under the current visitor's view, in the window (so WebKit lays it out at the page's
        // size and paints it, and the swap only uncovers it), and out of the visitor's reach:
        // transparent, insensitive (no input, no focus), letting every event through to the
        // view below, and muted (a home page's video does not play to the leaving visitor).
        if let view = prepared.host.coordinator.view { webkit_web_view_set_is_muted(view, 1) }
        gtk_widget_set_sensitive(web, 0)
        gtk_widget_set_opacity(web, 0)
        gtk_overlay_add_overlay(overlay.cast(), web)
        gtk_overlay_reorder_overlay(overlay.cast(), web, 0)
        gtk_overlay_set_overlay_pass_through(overlay.cast(), web, 1)
        gtk_widget_show(web)
        if let gdkWindow = gtk_widget_get_window(web) {
            let nowhere = cairo_region_create()
            gdk_window_input_shape_combine_region(gdkWindow, nowhere, 0, 0)
            cairo_region_destroy(nowhere)
        }
        Log.info("next visitor's session prepared", fields: ["PORTHOLE_EVENT": "next-visitor-prepared"])
    }

    /// Lets the prepared view go, then its context and data manager (its web process ends).
    func discardNextVisitor() {
        guard let prepared = nextVisitor else { return }
        nextVisitor = nil
        if let web = prepared.host?.widget { gtk_container_remove(overlay.cast(), web) }
        prepared.host?.dismantle()
        engine.discardNextSession()
    }

    /// Whether a view is prepared for the next visitor (tests).
    public var hasPreparedNextVisitor: Bool { nextVisitor != nil }
    /// The prepared view (tests).
    public var preparedWebView: UnsafeMutablePointer<WebKitWebView>? { nextVisitor?.host?.coordinator.view }
}
