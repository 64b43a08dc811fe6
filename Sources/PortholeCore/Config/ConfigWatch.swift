// When a watched configuration folder (Chrome's policy folder) has settled after changes: the
// debounce as a value, with time as an input.

/// Decides when to reload after a watched folder changed. A deploy writes several files, an
/// editor writes a temporary file and renames it: reloading on the first event would read a
/// folder half updated, and reloading on every event would read it many times. So a reload waits
/// until the folder has been quiet for `quiet` seconds, but never more than `longest` seconds
/// after the first change (a folder that never stops changing is still read). What a reload
/// reads is then judged by the usual rules: a file still being rewritten is a transient problem
/// and the running configuration stays (`ConfigReload`).
public struct ConfigWatch: Sendable, Equatable {
    public static let quiet = 0.5
    public static let longest = 5.0

    private var firstChange: Double?
    private var lastChange: Double?

    public init() {}

    /// Whether a change is waiting for its reload.
    public var isPending: Bool { firstChange != nil }

    /// A change seen at `now`; returns the time to call `due(now:)` next.
    public mutating func changed(at now: Double) -> Double {
        if firstChange == nil { firstChange = now }
        lastChange = now
        return deadline ?? now
    }

    /// The time the pending reload is due, or nil when nothing changed.
    public var deadline: Double? {
        guard let firstChange, let lastChange else { return nil }
        return min(lastChange + Self.quiet, firstChange + Self.longest)
    }

    /// Whether to reload at `now`; a reload clears the pending change.
    public mutating func due(now: Double) -> Bool {
        guard let deadline, now >= deadline else { return false }
        firstChange = nil
        lastChange = nil
        return true
    }
}
