// The real porthole binary under a pretend systemd: READY=1 after the first page, WATCHDOG=1
// keep-alives; and `porthole --hash-pin`.
import CGLib
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import XCTest

/// The porthole executable built with these tests: beside the test bundle in the build
/// directory (whatever --scratch-path was), else `$PORTHOLE_BINARY`, else the package's .build.
private func portholeBinary() -> String? {
    let candidates: [String?] = [
        ProcessInfo.processInfo.environment["PORTHOLE_BINARY"],
        URL(fileURLWithPath: DataDirectory.executablePath()).deletingLastPathComponent().appendingPathComponent("porthole").path,
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/porthole").path,
    ]
    return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// A bound datagram socket standing in for systemd's notify socket.
@MainActor
private final class NotifySocket {
    let path: String
    private let socket: UnsafeMutablePointer<GSocket>
    private(set) var messages: [String] = []

    init(path: String) throws {
        self.path = path
        var error: UnsafeMutablePointer<GError>?
        socket = g_socket_new(G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_DEFAULT, &error)!
        let address = g_unix_socket_address_new(path)!
        defer { g_object_unref(UnsafeMutableRawPointer(address)) }
        g_socket_bind(socket, address, 1, &error)
        if let failure = GLibError.take(error) { throw failure }
        g_socket_set_blocking(socket, 0)
    }

    /// Reads what has arrived, without blocking.
    func drain() {
        var buffer = [gchar](repeating: 0, count: 1024)
        while true {
            var error: UnsafeMutablePointer<GError>?
            let count = g_socket_receive(socket, &buffer, gsize(buffer.count), nil, &error)
            _ = GLibError.take(error)
            guard count > 0 else { return }
            messages.append(String(decoding: buffer[0..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    func close() {
        g_socket_close(socket, nil)
        g_object_unref(UnsafeMutableRawPointer(socket))
        unlink(path)
    }
}

final class KioskSystemdTests: XCTestCase {
    func testReadyArrivesAfterTheFirstPageAndThenWatchdogKeepAlives() throws {
        try MainActor.assumeIsolated {
            let binary = try XCTUnwrap(portholeBinary(), "the porthole binary is built beside the tests")
            let directory = NSTemporaryDirectory() + "porthole-service-\(getpid())"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let config = directory + "/porthole.conf"
            try "[Sites]\nStart=porthole://start/\n[Privacy]\nephemeral=true\n".write(toFile: config, atomically: true, encoding: .utf8)
            let socket = try NotifySocket(path: directory + "/notify")
            defer { socket.close() }

            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["--kiosk", "--config", config]
            var environment = ProcessInfo.processInfo.environment
            environment["NOTIFY_SOCKET"] = socket.path
            environment["WATCHDOG_USEC"] = "1000000"  // keep-alives every 0.5 s
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
            XCTAssertTrue(MainLoop.iterate(timeout: 30) {
                socket.drain()
                return socket.messages.contains { $0.hasPrefix("READY=1") } || !process.isRunning
            }, "READY=1 arrives")
            let ready = try XCTUnwrap(socket.messages.first { $0.hasPrefix("READY=1") }, "messages: \(socket.messages)")
            XCTAssertEqual(ready, "READY=1\nSTATUS=Showing porthole://start/")
            XCTAssertTrue(socket.messages.first == "WATCHDOG=1", "the first keep-alive goes out at start-up: \(socket.messages)")
            let watchdogs = socket.messages.filter { $0 == "WATCHDOG=1" }.count
            XCTAssertTrue(MainLoop.iterate(timeout: 5) {
                socket.drain()
                return socket.messages.filter { $0 == "WATCHDOG=1" }.count >= watchdogs + 2
            }, "keep-alives keep coming: \(socket.messages)")
            XCTAssertEqual(socket.messages.filter { $0.hasPrefix("READY=1") }.count, 1, "ready is said once")
        }
    }

    func testHashPinPrintsAConfigLineForThePinOnStandardInput() throws {
        let binary = try XCTUnwrap(MainActor.assumeIsolated { portholeBinary() })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--hash-pin"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("2468\n".utf8))
        try input.fileHandleForWriting.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let line = printed.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(line.hasPrefix("exit-pin-hash=$y$"), line)
        let hash = try XCTUnwrap(ExitPinHash(String(line.dropFirst("exit-pin-hash=".count))))
        XCTAssertTrue(hash.matches(pin: "2468"))
    }
}
