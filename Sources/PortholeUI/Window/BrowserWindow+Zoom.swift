// Zoom: the session picks the level (Ctrl++, Ctrl+-, Ctrl+0, Ctrl+wheel); this applies and shows it.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
extension BrowserWindow {
    /// The page's zoom level (1.0 is 100 %), as the window chose it (without Larger text's scale).
    public var zoomLevel: Double { pageZoomLevel / textScale }

    /// The zoom the page is shown at: the window's level times Larger text's scale.
    public var pageZoomLevel: Double { webView.map { webkit_web_view_get_zoom_level($0) } ?? options.settings.zoom * textScale }

    /// Sets the page's zoom (times Larger text's scale) and shows the level over the page.
    func applyZoom(_ level: Double) {
        guard let webView else { return }
        webkit_web_view_set_zoom_level(webView, level * textScale)
        zoomIndicator.show(level * textScale)
        primaryMenu.setZoom(level)
    }

    /// Ctrl+wheel on the current web view zooms (where the kiosk keeps the zoom shortcuts).
    func connectZoomScroll() {
        guard let web = webHost.widget, options.kiosk.map({ $0.shortcuts.contains(.zoom) }) ?? true else { return }
        // Before WebKit's own handler: Ctrl+wheel zooms instead of scrolling.
        viewConnections.connect(UnsafeMutableRawPointer(web), "scroll-event", .pointerReturningBool { [unowned self] event in
            guard let scroll = event?.assumingMemoryBound(to: GdkEventScroll.self).pointee,
                  scroll.state & GDK_CONTROL_MASK.rawValue != 0 else { return false }
            self.zoomByScrolling(scroll)
            return true
        })
    }

    func zoomByScrolling(_ scroll: GdkEventScroll) {
        let delta: Double
        switch scroll.direction {
        case GDK_SCROLL_UP: delta = -1
        case GDK_SCROLL_DOWN: delta = 1
        case GDK_SCROLL_SMOOTH: delta = scroll.delta_y
        default: return
        }
        send(.intent(.zoomScrolled(delta: delta, current: zoomLevel)))
    }
}
