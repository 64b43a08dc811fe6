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

extension BrowserWindow {
    /// Kiosk mode for this window, on the clock its options name: the one place the window's side
    /// names KioskController.
    func makeKioskMode(_ settings: KioskSettings) -> any KioskMode {
        KioskController(host: self, settings: settings, accessibility: options.accessibility, clock: options.clock,
                        warningSoundSink: options.warningSoundSink)
    }
}
