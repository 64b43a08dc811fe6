// What kiosk mode needs of the window it runs in.
import CWebKitGtk

/// The window as KioskController sees it: a toplevel to keep full screen, a layer for the idle
/// warning, the page (its cursor, loading, reload) and the visitor's session.
@MainActor
protocol KioskHost: AnyObject {
    /// The toplevel GtkWindow, nil once destroyed.
    var window: UnsafeMutablePointer<GtkWidget>? { get }
    /// The overlay over everything in the window, where the idle warning goes.
    var windowOverlay: UnsafeMutablePointer<GtkWidget> { get }
    /// The page's own GdkWindow, where WebKit sets the page's cursors (nil until realized).
    var pageGdkWindow: OpaquePointer? { get }
    var isPageLoading: Bool { get }
    func reloadPage()
    /// Forgets the visitor (cookies, storage, history) and shows the home page.
    func startNewSession()
    /// Closes the window for good.
    func close()
}
