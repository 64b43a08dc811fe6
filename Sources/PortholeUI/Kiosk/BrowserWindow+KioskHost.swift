// BrowserWindow as the host kiosk mode runs in.
import CWebKitGtk
import PortholeCore

extension BrowserWindow: KioskHost {
    var pageGdkWindow: OpaquePointer? {
        webView.flatMap { gtk_widget_get_window(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)) }
    }

    var isPageLoading: Bool { coordinator.isLoading }

    func reloadPage() { coordinator.reload() }
}

extension KioskController {
    /// Kiosk mode for `browser`, on the clock its options name.
    convenience init(browser: BrowserWindow, settings: KioskSettings) {
        self.init(host: browser, settings: settings, clock: browser.options.clock)
    }
}
