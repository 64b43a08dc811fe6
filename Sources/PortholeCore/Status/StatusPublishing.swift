// When the status record reaches its readers (the `status` action on D-Bus and the status file):
// page events change it several times a navigation, and each publication costs the UI's main
// thread a D-Bus signal and a file written and renamed (issue 26: ~1.2 ms of a navigation on one
// core where the runtime directory is on ext4). So what page events change is published together,
// a second after the first unpublished change; the rest (configuration, profile) is published at
// once, and takes whatever was waiting with it.

/// The status record's publication: waiting for page events to settle, or not.
public struct StatusPublishing: Sendable, Equatable {
    /// How long a page event's change waits for the next ones: a monitor or `porthole status`
    /// reads a record at most this far behind the page.
    public static let delayMilliseconds: UInt32 = 1_000

    public enum Command: Sendable, Equatable {
        /// Call `due()` after this long.
        case wait(milliseconds: UInt32)
        /// Give up the wait: the record was just published.
        case cancelWait
        /// Publish the record as it is now.
        case publish
    }

    public private(set) var waiting = false

    public init() {}

    /// A page event changed the record.
    public mutating func changed() -> [Command] {
        guard !waiting else { return [] }
        waiting = true
        return [.wait(milliseconds: Self.delayMilliseconds)]
    }

    /// The wait is over: everything that changed during it goes out in one publication.
    public mutating func due() -> [Command] {
        guard waiting else { return [] }
        waiting = false
        return [.publish]
    }

    /// The record is published at once (a configuration or profile change): nothing waits anymore.
    public mutating func publishNow() -> [Command] {
        defer { waiting = false }
        return waiting ? [.cancelWait, .publish] : [.publish]
    }
}
