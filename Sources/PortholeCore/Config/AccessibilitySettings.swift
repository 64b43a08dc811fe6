// `[Accessibility]`: what a kiosk offers a visitor who needs more time, larger text or contrast.

/// `[Accessibility]`: the idle warning's More time, the visitor controls' defaults and sizes.
public struct AccessibilitySettings: Sendable, Equatable {
    /// `more-time`: seconds the idle warning's More time button keeps the session before the next
    /// warning (never less than the idle timeout).
    public var moreTime = 120
    /// `idle-factor-with-speech`: the idle timeout is this many times longer while speech is on
    /// (a visitor listening to a page needs longer than one reading it).
    public var idleFactorWithSpeech = 3.0
    /// `large-text`: each visitor starts with larger text on.
    public var largeText = false
    /// `large-text-scale`: how much larger larger text is, for the page and for Porthole's own
    /// chrome.
    public var largeTextScale = 1.5
    /// `high-contrast`: each visitor starts with high contrast on.
    public var highContrast = false

    public static let idleFactorRange = 1.0...10.0
    public static let largeTextScaleRange = 1.25...3.0

    public init() {}

    /// The visitor controls each visitor starts with.
    public var visitorDefaults: VisitorControls {
        VisitorControls(largeText: largeText, highContrast: highContrast)
    }
}
