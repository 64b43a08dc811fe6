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
    /// Forgets the visitor (cookies, storage, history) and shows the home page: the prepared
    /// next visitor's view when `swapping` and there is one, else a new view loading it.
    func startNewSession(swapping: Bool)
    /// Builds the next visitor's session off screen, the home page loading in it.
    func prepareNextVisitor()
    /// Lets the prepared next visitor's session go.
    func discardNextVisitor()
    /// Closes the window for good.
    func close()
    /// The bottom bar, where the visitor controls go.
    var kioskBar: UnsafeMutablePointer<GtkWidget> { get }
    /// The read-aloud mode's on/off button, for the visitor controls' group.
    var speechButton: UnsafeMutablePointer<GtkWidget>? { get }
    /// The user content manager every web view shares, for the contrast style sheet.
    var userContentManager: UnsafeMutablePointer<WebKitUserContentManager> { get }
    /// Multiplies the page's zoom by `scale` (Larger text), on top of the zoom the window chose.
    func setTextScale(_ scale: Double)
    /// Gives the keyboard focus back to the page.
    func focusPage()
}
