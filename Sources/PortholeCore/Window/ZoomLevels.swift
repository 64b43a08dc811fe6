// The page zoom steps for Ctrl++ / Ctrl+- and Ctrl+scroll, and how a level reads on screen.
import FoundationEssentials

/// Zoom steps as GNOME Web and Firefox use them: finer near 100 %, coarser far from it.
public enum ZoomLevels {
    public static let steps: [Double] = [0.3, 0.5, 0.67, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0]

    /// The next step above `level` (a level between steps goes to the next one); the largest
    /// step (or a level set beyond it) stays.
    public static func larger(than level: Double) -> Double {
        steps.first { $0 > level + 0.001 } ?? max(level, steps[steps.count - 1])
    }

    /// The next step below `level`; the smallest step (or a level set beyond it) stays.
    public static func smaller(than level: Double) -> Double {
        steps.last { $0 < level - 0.001 } ?? min(level, steps[0])
    }

    /// `level` as the percentage shown while it changes ("110 %" in the visitor's notation).
    public static func percentage(_ level: Double) -> String {
        tr("{percent} %").replacing("{percent}", with: String(Int((level * 100).rounded())))
    }
}
