// The WebKit web processes this test process started (directly, or through bubblewrap), read
// from /proc: what a page's process can see is judged there, not by what Porthole says.
import Foundation

public enum WebProcesses {
    /// Every running WebKitWebProcess descended from `ancestor` (this process), oldest first.
    public static func descendants(of ancestor: pid_t = getpid()) -> [pid_t] {
        let me = ancestor
        var parents: [pid_t: pid_t] = [:]
        var web: [(pid: pid_t, start: UInt64)] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // After the name: state, ppid … starttime is the 20th field from there.
            guard fields.count > 19, let parent = pid_t(fields[1]), let start = UInt64(fields[19]) else { continue }
            parents[pid] = parent
            if stat.contains("(WebKitWebProces"), fields[0] != "Z" { web.append((pid, start)) }
        }
        func descends(_ pid: pid_t) -> Bool {
            var current = pid
            for _ in 0..<16 {
                guard let parent = parents[current], parent > 1 else { return false }
                if parent == me { return true }
                current = parent
            }
            return false
        }
        return web.filter { descends($0.pid) }.sorted { $0.start < $1.start }.map(\.pid)
    }

    /// The files mapped into `pid` (`/proc/PID/maps`, read to its end: procfs reports size 0).
    public static func mappedFiles(_ pid: pid_t) -> [String] {
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/maps"),
              let data = try? handle.readToEnd() else { return [] }
        try? handle.close()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.firstIndex(of: "/").map { String(line[$0...]) }
        }
    }

    /// The files mapped executable into `pid`: one line for each loaded copy of a library.
    public static func executableFiles(_ pid: pid_t) -> [String] {
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/maps"),
              let data = try? handle.readToEnd() else { return [] }
        try? handle.close()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            // address, permissions, offset, device, inode, then the path after padding.
            let fields = line.split(separator: " ", maxSplits: 1)
            guard fields.count == 2, fields[1].hasPrefix("r-x"), let path = line.firstIndex(of: "/") else { return nil }
            return String(line[path...])
        }
    }

    /// The newest of them (the page's, for the window just made).
    public static func newest() -> pid_t? { descendants().last }
}
