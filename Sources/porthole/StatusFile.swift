// The status file: Prometheus's text format, written atomically where monitoring can read it
// without the kiosk's session bus (node_exporter's textfile collector, an NRPE check).
import CGLib
import Glibc
import GLibBridge
import PortholeCore

@MainActor
final class StatusFile {
    private let paths: [String]
    /// The paths that could not be written, each said once in the log.
    private var failed: Set<String> = []

    init(environment: [String: String]) {
        paths = StatusFileLocation.paths(environment: environment)
    }

    /// Replaces each file with `text`: written to a temporary file beside it and renamed over it,
    /// so a reader sees the old status or the new one, never half. Not synced to disk: the file
    /// describes the running browser and is rewritten at every publication (and removed at exit),
    /// so after a crash there is nothing to keep; an fsync on the main thread at every load event
    /// held start-up's first navigation decision for 5–390 ms where the runtime directory is on
    /// a disk rather than tmpfs (issue 26: strace of a start-up under `make bench`).
    func write(_ text: String) {
        for path in paths {
            let directory = String(path[..<path.lastIndex(of: "/")!])
            let temporary = path + ".new-\(getpid())"
            var error: UnsafeMutablePointer<GError>?
            var done = g_mkdir_with_parents(directory, 0o755) == 0
                && g_file_set_contents_full(temporary, text, gssize(text.utf8.count), G_FILE_SET_CONTENTS_NONE, 0o644, &error) != 0
            if done, rename(temporary, path) != 0 {
                done = false
                _ = unlink(temporary)
            }
            let message = GLibError.take(error)?.message
            if done {
                failed.remove(path)
            } else if failed.insert(path).inserted {
                Log.warning("cannot write the status file \(path): \(message ?? String(cString: g_strerror(errno)))",
                            fields: ["PORTHOLE_EVENT": "status-file-failed", "PORTHOLE_PATH": path])
            }
        }
    }

    /// Removes the files when the browser ends: a file left behind would report a healthy kiosk
    /// that no longer runs (a monitor alerts on the metric's absence instead).
    func remove() {
        paths.forEach { _ = unlink($0) }
    }
}
