// Whether the browser's profile (website data, cache) can be written: a full or read-only disk
// under it made WebKit fail quietly (only libsoup's "database or disk is full" on stderr).

/// What the file system says of one profile directory; the application probes, Core decides.
public struct ProfileProbe: Sendable, Equatable {
    public var path: String
    /// Why the directory cannot be written (strerror's text), or nil when it can.
    public var unwritable: String?
    /// Bytes free to an unprivileged writer (statvfs f_bavail × f_frsize), or nil if unknown.
    public var freeBytes: UInt64?

    public init(path: String, unwritable: String? = nil, freeBytes: UInt64? = nil) {
        self.path = path
        self.unwritable = unwritable
        self.freeBytes = freeBytes
    }
}

public enum ProfileCheck {
    /// Below this the profile's disk is nearly full: WebKit's databases (cookies, local storage,
    /// the HTTP cache's index) fail their next writes without a word to the visitor.
    public static let minimumFreeBytes: UInt64 = 64 << 20

    /// One line per problem, for the log and `porthole status` (untranslated, as the log is).
    public static func problems(_ probes: [ProfileProbe]) -> [String] {
        probes.compactMap { probe in
            if let why = probe.unwritable {
                return "cannot write the profile at \(probe.path): \(why)"
            }
            if let free = probe.freeBytes, free < minimumFreeBytes {
                return "the disk under the profile at \(probe.path) is almost full: \(free >> 20) MiB free"
            }
            return nil
        }
    }
}
