// Runs the real `porthole` binary (and other tools) as child processes, with a private D-Bus
// session bus and throwaway XDG directories, while the test's main loop keeps serving.
import Foundation
import GLibBridge

@MainActor
public final class Subprocess {
    public let process = Process()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private var output = Data()
    private var errors = Data()
    /// Whether the output is read to its end once the process exits. A bus daemon's is not: the
    /// services it starts (at-spi2-registryd) inherit its pipes and keep them open after it.
    private let collectsOutput: Bool

    /// Starts `executable` with `arguments`; `environment` is added to the test's own.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                directory: String? = nil, stdin: String? = nil, collectsOutput: Bool = true) throws {
        self.collectsOutput = collectsOutput
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
    }

    /// Waits (iterating the main loop) until the process exits; false on timeout.
    @discardableResult
    public func wait(timeout: Double = 60) -> Bool {
        let done = MainLoop.iterate(timeout: timeout) { !self.process.isRunning }
        if done { collect() }
        return done
    }

    public var isRunning: Bool { process.isRunning }
    public var status: Int32 { process.terminationStatus }
    public var stdout: String { collect(); return String(decoding: output, as: UTF8.self) }
    public var stderr: String { collect(); return String(decoding: errors, as: UTF8.self) }

    /// Ends the process (SIGTERM, then SIGKILL) and waits for it.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        if !wait(timeout: 5) {
            kill(process.processIdentifier, SIGKILL)
            wait(timeout: 5)
        }
    }

    private func collect() {
        guard collectsOutput, !process.isRunning else { return }
        output.append(stdoutPipe.fileHandleForReading.readDataToEndOfFile())
        errors.append(stderrPipe.fileHandleForReading.readDataToEndOfFile())
    }

    /// Runs to completion and returns (status, stdout, stderr).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           stdin: String? = nil, timeout: Double = 60) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try Subprocess(executable, arguments, environment: environment, stdin: stdin)
        guard child.wait(timeout: timeout) else {
            child.stop()
            return (-1, child.stdout, child.stderr + "\n(timed out)")
        }
        return (child.status, child.stdout, child.stderr)
    }
}

/// Paths of the package and of the binaries built beside the test bundle.
public enum BuildProducts {
    /// The directory holding the test bundle and the products built with it (`.build/debug`).
    public static var directory: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().path
    }

    public static var porthole: String { directory + "/porthole" }

    /// The package root (holding Package.swift and the Makefile).
    public static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}

/// A temporary directory removed on `remove()`.
public struct TemporaryDirectory {
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "porthole-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    @discardableResult
    public func write(_ name: String, _ contents: String) -> String {
        let file = path + "/" + name
        try? FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? contents.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A private D-Bus session bus for one test, so the browser's single instance and its exported
/// actions are the test's own.
@MainActor
public final class PrivateBus {
    private let daemon: Subprocess
    public let address: String

    public init() throws {
        daemon = try Subprocess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"], collectsOutput: false)
        var address = ""
        let handle = (daemon.process.standardOutput as! Pipe).fileHandleForReading
        // The address is the first line dbus-daemon prints; read it byte by byte so nothing else blocks.
        while let byte = try? handle.read(upToCount: 1), let char = byte.first, char != UInt8(ascii: "\n") {
            address.append(Character(UnicodeScalar(char)))
        }
        self.address = address
    }

    /// The environment for a child that should use this bus and throwaway XDG directories.
    public func environment(home: TemporaryDirectory) -> [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address,
         "HOME": home.path,
         "XDG_CONFIG_HOME": home.path + "/config",
         "XDG_DATA_HOME": home.path + "/data",
         "XDG_CACHE_HOME": home.path + "/cache",
         "GSETTINGS_BACKEND": "memory",
         "NO_AT_BRIDGE": "1"]
    }

    public func stop() { daemon.stop() }
}
