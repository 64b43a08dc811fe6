// The real porthole binary under a stand-in journald: what the journal receives of the kiosk's
// life (start, configuration loaded with its sources, SIGHUP), at which priority, with which ids.
import CGLib
import Foundation
import GLibBridge
import TestSupport
import XCTest

/// journald's two sockets, bound where GLib looks for them: `/run/systemd/journal/stdout` (a
/// service's standard error is connected to it, which is how GLib knows it runs under journald)
/// and `/run/systemd/journal/socket`, where `g_log_writer_journald` sends its datagrams in the
/// native protocol (systemd.journal-fields(7), "KEY=value" lines or "KEY\n" + 64-bit length + data).
@MainActor
private final class StandInJournal {
    static let directory = "/run/systemd/journal"
    private let datagrams: UnsafeMutablePointer<GSocket>
    private let listener: UnsafeMutablePointer<GSocket>
    private let client: UnsafeMutablePointer<GSocket>
    private let madeDirectory: Bool
    private(set) var entries: [[String: String]] = []

    /// Nil where a real journald runs or /run cannot be written (not root): the test is skipped.
    init?() {
        guard access(Self.directory + "/socket", F_OK) != 0 else { return nil }
        madeDirectory = mkdir(Self.directory, 0o755) == 0
        guard madeDirectory || errno == EEXIST else { return nil }
        func bound(_ type: GSocketType, _ path: String) -> UnsafeMutablePointer<GSocket>? {
            var error: UnsafeMutablePointer<GError>?
            guard let socket = g_socket_new(G_SOCKET_FAMILY_UNIX, type, G_SOCKET_PROTOCOL_DEFAULT, &error) else { return nil }
            let address = g_unix_socket_address_new(path)!
            defer { g_object_unref(UnsafeMutableRawPointer(address)) }
            guard g_socket_bind(socket, address, 1, &error) != 0 else {
                _ = GLibError.take(error)
                g_object_unref(UnsafeMutableRawPointer(socket))
                return nil
            }
            return socket
        }
        guard let datagrams = bound(G_SOCKET_TYPE_DATAGRAM, Self.directory + "/socket"),
              let listener = bound(G_SOCKET_TYPE_STREAM, Self.directory + "/stdout") else {
            if madeDirectory { rmdir(Self.directory) }
            return nil
        }
        g_socket_set_blocking(datagrams, 0)
        g_socket_listen(listener, nil)
        let client = g_socket_new(G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_DEFAULT, nil)!
        let address = g_unix_socket_address_new(Self.directory + "/stdout")!
        g_socket_connect(client, address, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(address))
        self.datagrams = datagrams
        self.listener = listener
        self.client = client
    }

    /// A service's standard error, connected to the journal's stdout socket.
    var standardError: FileHandle { FileHandle(fileDescriptor: g_socket_get_fd(client), closeOnDealloc: false) }

    /// Reads the entries that have arrived, without blocking.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var error: UnsafeMutablePointer<GError>?
            let count = buffer.withUnsafeMutableBytes {
                g_socket_receive(datagrams, $0.baseAddress?.assumingMemoryBound(to: gchar.self), gsize($0.count), nil, &error)
            }
            _ = GLibError.take(error)
            guard count > 0 else { return }
            entries.append(Self.parse(buffer[0..<Int(count)]))
        }
    }

    static func parse(_ bytes: ArraySlice<UInt8>) -> [String: String] {
        var entry: [String: String] = [:]
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard let end = bytes[index...].firstIndex(where: { $0 == 0x0A || $0 == 0x3D }) else { break }
            let key = String(decoding: bytes[index..<end], as: UTF8.self)
            if bytes[end] == 0x3D {
                let stop = bytes[(end + 1)...].firstIndex(of: 0x0A) ?? bytes.endIndex
                entry[key] = String(decoding: bytes[(end + 1)..<stop], as: UTF8.self)
                index = stop + 1
            } else {
                let length = bytes[(end + 1)..<(end + 9)].reversed().reduce(0) { $0 << 8 | Int($1) }
                entry[key] = String(decoding: bytes[(end + 9)..<(end + 9 + length)], as: UTF8.self)
                index = end + 9 + length + 1
            }
        }
        return entry
    }

    func close() {
        for socket in [client, listener, datagrams] {
            g_socket_close(socket, nil)
            g_object_unref(UnsafeMutableRawPointer(socket))
        }
        unlink(Self.directory + "/socket")
        unlink(Self.directory + "/stdout")
        if madeDirectory { rmdir(Self.directory) }
    }
}

final class JournalTests: XCTestCase {
    /// Under systemd the kiosk's life is in the journal: GLib's default writer would drop these
    /// INFO entries, and `journalctl --user -u porthole-kiosk` showed mostly refusals.
    func testKioskLifeReachesTheJournalAtInfoWithMessageIDs() throws {
        try MainActor.assumeIsolated {
            guard let journal = StandInJournal() else {
                throw XCTSkip("needs to bind /run/systemd/journal/socket (root, no journald running)")
            }
            defer { journal.close() }
            let directory = NSTemporaryDirectory() + "porthole-journal-\(getpid())"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let config = directory + "/porthole.conf"
            try "[Sites]\nStart=porthole://start/\n[Privacy]\nephemeral=true\n".write(toFile: config, atomically: true, encoding: .utf8)

            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuildProducts.porthole)
            process.arguments = ["--kiosk", "--config", config]
            var environment = ProcessInfo.processInfo.environment
            environment["G_MESSAGES_DEBUG"] = nil
            environment["XDG_CONFIG_HOME"] = directory + "/config"
            environment["XDG_DATA_HOME"] = directory + "/data"
            environment["XDG_CACHE_HOME"] = directory + "/cache"
            environment["XDG_RUNTIME_DIR"] = directory + "/runtime"
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = journal.standardError
            try process.run()
            defer {
                if process.isRunning { process.terminate() }
                process.waitUntilExit()
            }
            @MainActor func ours(_ event: String) -> [[String: String]] {
                journal.entries.filter { $0["SYSLOG_IDENTIFIER"] == "porthole" && $0["PORTHOLE_EVENT"] == event }
            }
            XCTAssertTrue(MainLoop.iterate(timeout: 30) {
                journal.drain()
                return !ours("kiosk-start").isEmpty && !ours("config-loaded").isEmpty || !process.isRunning
            }, "the kiosk's start arrives: \(journal.entries)")
            let loaded = try XCTUnwrap(ours("config-loaded").first)
            XCTAssertEqual(loaded["PRIORITY"], "6")
            XCTAssertEqual(loaded["MESSAGE_ID"], Log.messageIDs["config-loaded"])
            XCTAssertEqual(loaded["PORTHOLE_CONFIG_SOURCES"].map { $0.split(separator: ";").contains { $0 == config } }, true,
                           "the sources are named: \(loaded)")
            let started = try XCTUnwrap(ours("kiosk-start").first)
            XCTAssertEqual(started["PRIORITY"], "6")
            XCTAssertEqual(started["MESSAGE_ID"], Log.messageIDs["kiosk-start"])

            // The status file is written once the signal handlers are in place.
            XCTAssertTrue(MainLoop.iterate(timeout: 30) {
                FileManager.default.fileExists(atPath: directory + "/runtime/porthole/status.prom") || !process.isRunning
            })
            kill(process.processIdentifier, SIGHUP)
            XCTAssertTrue(MainLoop.iterate(timeout: 30) {
                journal.drain()
                return ours("config-loaded").count >= 2 || !process.isRunning
            }, "the reload is logged: \(journal.entries)")
            XCTAssertEqual(ours("config-sighup").map { $0["PRIORITY"] }, ["6"])
            XCTAssertEqual(journal.entries.filter { $0["SYSLOG_IDENTIFIER"] == "porthole" && $0["PRIORITY"] == "7" }.map { $0["MESSAGE"] },
                           [], "debug stays out without G_MESSAGES_DEBUG")
        }
    }

    /// Without journald (a supervisor writing standard error to a file), the same events are
    /// lines on standard error at their level; debug lines only with G_MESSAGES_DEBUG.
    func testKioskLifeGoesToStandardErrorWithoutTheJournal() throws {
        try MainActor.assumeIsolated {
            let directory = NSTemporaryDirectory() + "porthole-stderr-log-\(getpid())"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let config = directory + "/porthole.conf"
            try "[Sites]\nStart=porthole://start/\n[Privacy]\nephemeral=true\n".write(toFile: config, atomically: true, encoding: .utf8)
            let log = directory + "/stderr.log"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \"$0\" --kiosk --config \"$1\" 2>\"$2\"", BuildProducts.porthole, config, log]
            var environment = ProcessInfo.processInfo.environment
            environment["G_MESSAGES_DEBUG"] = nil
            environment["XDG_CONFIG_HOME"] = directory + "/config"
            environment["XDG_DATA_HOME"] = directory + "/data"
            environment["XDG_CACHE_HOME"] = directory + "/cache"
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer {
                if process.isRunning { process.terminate() }
                process.waitUntilExit()
            }
            var text = ""
            XCTAssertTrue(MainLoop.iterate(timeout: 30) {
                text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                return text.contains("kiosk mode") && text.contains("configuration loaded") || !process.isRunning
            }, "running: \(process.isRunning), status: \(process.isRunning ? 0 : process.terminationStatus), log: \(text)")
            let lines = text.split(separator: "\n")
            XCTAssertTrue(lines.contains { $0.contains("porthole-INFO") && $0.contains("kiosk mode") }, text)
            XCTAssertTrue(lines.contains { $0.contains("porthole-INFO") && $0.contains("configuration loaded") }, text)
            XCTAssertFalse(lines.contains { $0.contains("porthole-DEBUG") }, text)
        }
    }
}
