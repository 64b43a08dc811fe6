// Reads one configuration file safely: regular files only, bounded in size, and stable (left alone
// for a second, or two reads a moment apart agree), so that a file being rewritten in place is not
// taken half-written.
import CGLib
import FoundationEssentials
import Glibc

/// How configuration files are read. `standard` is what Porthole uses; tests inject `readOnce`,
/// `pause` and `unchangedFor` to make a file that changes between reads deterministic.
public struct ConfigFileReader: Sendable {
    /// The largest configuration file read: 16 MiB. Far above any real file (100,000 sites are
    /// about 4 MiB), and a bound on what a wrong path such as /dev/zero could make Porthole hold.
    public static let sizeLimit = 16 << 20

    /// Reads the file once; `read(_:)` calls it until two results agree.
    public var readOnce: @Sendable (String) throws(ConfigProblem) -> [UInt8]
    /// Waits the short moment between two reads.
    public var pause: @Sendable () -> Void
    /// How many reads at most before giving up on a file that keeps changing.
    public var tries: Int
    /// Seconds since the file at a path last changed (its contents or its inode), asked after a
    /// read; nil when that cannot be told.
    public var unchangedFor: @Sendable (String) -> Double?

    /// A file left alone this long before a read ended is whole: one read is enough. Every write
    /// to a file rewritten in place moves its change time, so such a file is still being
    /// written only if its writer has paused for longer than this, which two reads 20 ms apart
    /// would not notice either. A file just written (a deploy, an edit, a reload) gets two reads.
    public static let settledAfter = 1.0

    public init(tries: Int = 5, pause: @escaping @Sendable () -> Void = { g_usleep(20_000) },
                unchangedFor: @escaping @Sendable (String) -> Double? = ConfigFileReader.secondsSinceChange,
                readOnce: @escaping @Sendable (String) throws(ConfigProblem) -> [UInt8] = ConfigFileReader.readRegularFile) {
        self.tries = max(2, tries)
        self.pause = pause
        self.unchangedFor = unchangedFor
        self.readOnce = readOnce
    }

    public static let standard = ConfigFileReader()

    /// The bytes of `path`: at once when the file had been left alone for `settledAfter` seconds
    /// when the read ended (start-up does not wait on a file deployed long ago), else once two
    /// reads a moment apart are identical. A file that is still changing after `tries` reads is a
    /// transient problem: a reload keeps what is running.
    public func read(_ path: String) throws(ConfigProblem) -> [UInt8] {
        var previous = try readOnce(path)
        if let unchanged = unchangedFor(path), unchanged >= Self.settledAfter { return previous }
        for _ in 1..<tries {
            pause()
            let next = try readOnce(path)
            if next == previous { return next }
            previous = next
        }
        var problem = ConfigProblem(file: path, line: 0, message: tr("changed while being read: replace configuration files atomically (write a new file, then rename it over the old one)"))
        problem.isTransient = true
        throw problem
    }

    /// One read of a regular file of at most `sizeLimit` bytes. The file is opened without
    /// blocking (a FIFO would otherwise wait for a writer forever) and checked with `fstat` on
    /// the opened descriptor, so what is checked is what is read.
    public static func readRegularFile(_ path: String) throws(ConfigProblem) -> [UInt8] {
        func failure(_ reason: String) -> ConfigProblem {
            ConfigProblem(file: path, line: 0, message: tr("cannot read: {reason}").replacing("{reason}", with: reason))
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw failure(reason(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(reason(errno)) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw failure(tr("is a directory"))
        default: throw failure(tr("not a regular file"))
        }
        guard Int(status.st_size) <= sizeLimit else { throw failure(tr("larger than 16 MiB")) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw failure(reason(errno)) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            // The file may grow while it is read (or be a file whose size lies, as in /proc).
            guard bytes.count <= sizeLimit else { throw failure(tr("larger than 16 MiB")) }
        }
    }

    /// Seconds from the later of the file's modification and status-change times to now (the
    /// file system's clock); nil when `path` cannot be looked at. A file renamed over `path`
    /// counts as changed when it was renamed.
    public static func secondsSinceChange(_ path: String) -> Double? {
        var status = stat()
        var now = timespec()
        guard stat(path, &status) == 0, clock_gettime(CLOCK_REALTIME, &now) == 0 else { return nil }
        func seconds(_ time: timespec) -> Double { Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 }
        return seconds(now) - max(seconds(status.st_mtim), seconds(status.st_ctim))
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: tr("no such file")
        case EACCES, EPERM: tr("permission denied")
        case EISDIR: tr("is a directory")
        default: String(cString: g_strerror(code))
        }
    }
}
