// What the window needs of kiosk mode, and what tests read of it: the other half of KioskHost.
import CWebKitGtk
import PortholeCore

/// Kiosk mode as the window holds it: told before the window first shows, asked whether a
/// close is refused, torn down with the window. KioskController is the one kind.
@MainActor
protocol KioskMode: KioskInspection {
    /// Full screen from the first frame.
    func prepareToShow()
    /// Whether the window refuses to close (each refusal is counted and logged).
    func refusesClose() -> Bool
    func teardown()
    /// What the kiosk has speech say (the idle warning and its countdown, the PIN dialog).
    var onSpeech: (@MainActor (SpeechEvent) -> Void)? { get set }
    /// Speech went on or off: the idle timeout is longer while it is on.
    func speechChanged(on: Bool)
    /// What the next visitor's prepared view did (loaded, failed), or new options.
    func nextVisitorChanged(_ event: NextVisitorEvent)
}

/// What tests and accessibility checks read of kiosk mode (`BrowserWindow.kiosk`), not for decisions.
@MainActor
public protocol KioskInspection: AnyObject {
    /// The last key presses swallowed, in order, at most 32.
    var swallowedKeys: [KeyChord] { get }
    /// Close requests refused (window manager close, Alt+F4).
    var refusedCloses: Int { get }
    /// Visitor sessions started after an idle timeout.
    var sessionsStarted: Int { get }
    var isCursorHidden: Bool { get }
    var isFullscreen: Bool { get }
    var isIdleWarningVisible: Bool { get }
    var idleWarningText: String { get }
    /// The exit dialog's PIN entry while it is open (tests type into it).
    var exitDialogEntry: UnsafeMutablePointer<GtkWidget>? { get }
    var exitDialogMessage: String? { get }
    /// The visitor controls (larger text, high contrast) as the kiosk holds them, their buttons,
    /// the place kept for the speech button, and whether the contrast style sheet is in use.
    var visitorControls: VisitorControls { get }
    func visitorControlButton(_ control: VisitorControl) -> UnsafeMutablePointer<GtkWidget>?
    var speechButtonSlot: UnsafeMutablePointer<GtkWidget>? { get }
    var hasContrastStyleSheet: Bool { get }
    /// The idle warning's More time button, and its warning sounds started and finished.
    var moreTimeButton: UnsafeMutablePointer<GtkWidget> { get }
    var warningSoundsStarted: Int { get }
    var warningSoundsFinished: Int { get }
    /// Whether the next visitor's prepared page has loaded (and waits to be swapped in).
    var isNextVisitorReady: Bool { get }
}

extension KioskController: KioskMode {}
