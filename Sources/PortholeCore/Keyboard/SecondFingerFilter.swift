// `[Browser] pinch-zoom=false`: which touch events reach the page when only one finger may.

/// Lets the first finger's touch sequence through and drops every sequence that begins while
/// another is down, so the web view never sees two fingers and cannot be pinch-zoomed.
public struct SecondFingerFilter<Sequence: Hashable & Sendable>: Sendable {
    public enum Phase: Sendable { case begin, update, end }

    private var down: Set<Sequence> = []
    private var dropped: Set<Sequence> = []

    public init() {}

    /// Whether the event of `sequence` in `phase` is dropped.
    public mutating func drops(_ sequence: Sequence, _ phase: Phase) -> Bool {
        switch phase {
        case .begin:
            if down.isEmpty {
                down.insert(sequence)
                return false
            }
            dropped.insert(sequence)
            return true
        case .update:
            return dropped.contains(sequence)
        case .end:
            down.remove(sequence)
            return dropped.remove(sequence) != nil
        }
    }
}
