// BrowserWindow as the host kiosk mode runs in.
import CWebKitGtk
import PortholeCore

extension BrowserWindow: KioskHost {
    var pageGdkWindow: OpaquePointer? {
        webView.flatMap { gtk_widget_get_window(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)) }
    }

    var isPageLoading: Bool { coordinator.isLoading }

    func reloadPage() { coordinator.reload() }

    var kioskBar: UnsafeMutablePointer<GtkWidget> { bottomBar }

    var userContentManager: UnsafeMutablePointer<WebKitUserContentManager> { engine.userContentManager }

    func setTextScale(_ scale: Double) {
        textScale = scale
        applyZoom(session.zoom)
    }
}

extension KioskController {
    /// Kiosk mode for `browser`, on the clock its options name.
    convenience init(browser: BrowserWindow, settings: KioskSettings) {
        self.init(host: browser, settings: settings, accessibility: browser.options.accessibility, clock: browser.options.clock,
                  warningSoundSink: browser.options.warningSoundSink)
    }
}
