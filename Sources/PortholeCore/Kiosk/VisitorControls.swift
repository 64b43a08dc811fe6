// The visitor controls in the kiosk bar: larger text and high contrast, one visitor's choice.

/// One of the kiosk bar's visitor controls. Speech on/off is the speech mode's own button
/// beside these (see `KioskEvent.speechChanged`), not one of them.
public enum VisitorControl: String, Sendable, Equatable, CaseIterable {
    case largeText = "large-text"
    case highContrast = "high-contrast"

    /// The button's label, which is also its accessible name.
    public var label: String {
        switch self {
        // TRANSLATORS: a kiosk bar toggle button that makes the page and the buttons larger.
        case .largeText: tr("Larger text")
        // TRANSLATORS: a kiosk bar toggle button that turns high contrast colours on and off.
        case .highContrast: tr("High contrast")
        }
    }
}

/// What the current visitor turned on. Part of `KioskSession`: the idle reset puts it back to
/// the configured defaults for the next visitor, like the zoom and the clipboard.
public struct VisitorControls: Sendable, Equatable {
    public var largeText: Bool
    public var highContrast: Bool

    public init(largeText: Bool = false, highContrast: Bool = false) {
        self.largeText = largeText
        self.highContrast = highContrast
    }

    public func isOn(_ control: VisitorControl) -> Bool {
        switch control {
        case .largeText: largeText
        case .highContrast: highContrast
        }
    }

    public mutating func toggle(_ control: VisitorControl) {
        switch control {
        case .largeText: largeText.toggle()
        case .highContrast: highContrast.toggle()
        }
    }

    /// What the page's zoom and the chrome's text are multiplied by: `scale` with larger text on.
    public func textScale(_ scale: Double) -> Double { largeText ? scale : 1 }

    /// The user style sheet that enforces contrast on every page while high contrast is on:
    /// light text on black, yellow links, visible focus and borders, whatever colours the page
    /// set (WCAG 1.4.3 asks 4.5:1; white on black is 21:1, yellow on black 19.6:1).
    public static let contrastStyleSheet = """
        html, body, body *:not(img):not(video):not(canvas):not(svg):not(svg *):not(iframe) {
          background-color: #000000 !important; background-image: none !important;
          color: #ffffff !important; border-color: #ffffff !important;
          text-shadow: none !important; box-shadow: none !important; opacity: 1 !important;
        }
        a:link, a:visited, a *, [role=link], [role=link] * { color: #ffff00 !important; text-decoration: underline !important; }
        button, input, select, textarea, [role=button] { border: 2px solid #ffffff !important; }
        input:not([type=checkbox]):not([type=radio]):not([type=range]):not([type=color]), textarea {
          -webkit-appearance: none !important; appearance: none !important;
        }
        ::placeholder { color: #c0c0c0 !important; }
        :focus, :focus-visible { outline: 4px solid #ffff00 !important; outline-offset: 2px !important; }
        ::selection { background-color: #ffff00 !important; color: #000000 !important; }
        """
}
