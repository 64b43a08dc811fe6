// Kiosk mode's part for visitors who need more: the visitor controls in the bar, what they
// change on screen, More time, and the speech mode's input to the idle clock.
import CWebKitGtk
import GLibBridge
import PortholeCore

extension KioskController {
    /// The bar's Larger text and High contrast buttons (and the speech button's place), packed
    /// at the bar's end, before Reload; what the configuration turns on for every visitor is
    /// applied at once.
    func makeVisitorControls() {
        let bar = VisitorControlsBar { [unowned self] control in self.handle(.visitorControl(control)) }
        visitorBar = bar
        if let speech = host?.speechButton { gtk_container_add(bar.speechSlot.cast(), speech) }
        if let kioskBar = host?.kioskBar { gtk_action_bar_pack_end(kioskBar.cast(), bar.widget) }
        if session.visitor != VisitorControls() { run(session.visitorCommand) }
    }

    func showVisitorControls(_ controls: VisitorControls, textScale: Double) {
        guard let host else { return }
        appearance.apply(controls, textScale: textScale, to: host)
        visitorBar?.show(controls)
    }

    /// The speech mode was turned on or off: the idle timeout is longer while it is on.
    public func speechChanged(on: Bool) { handle(.speechChanged(on: on)) }

    /// The box in the kiosk bar where the speech mode's on/off button goes (before Larger text).
    public var speechButtonSlot: UnsafeMutablePointer<GtkWidget>? { visitorBar?.speechSlot }

    /// What the current visitor turned on.
    public var visitorControls: VisitorControls { session.visitor }
    /// The bar's button for `control`.
    public func visitorControlButton(_ control: VisitorControl) -> UnsafeMutablePointer<GtkWidget>? { visitorBar?.buttons[control] }
    /// Whether the pages' contrast style sheet is in place.
    public var hasContrastStyleSheet: Bool { appearance.hasContrastSheet }

    /// The idle warning's More time button.
    public var moreTimeButton: UnsafeMutablePointer<GtkWidget> { warning.moreTimeButton }
    /// Warning tones started and played to their end (or failed).
    public var warningSoundsStarted: Int { warningSound.started }
    public var warningSoundsFinished: Int { warningSound.finished }
}
