// Page web processes in WebKitGTK's bubblewrap sandbox (issue 20, item 1), judged by what the
// process can see: its own mount namespace, no view of the user's home, a seccomp filter.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

final class SandboxTests: XCTestCase {
    /// Checks every web process descended from `ancestor` and returns how many it checked.
    @MainActor
    static func assertSandboxed(descendantsOf ancestor: pid_t, canary: String, file: StaticString = #filePath, line: UInt = #line) -> Int {
        let processes = WebProcesses.descendants(of: ancestor)
        let ownNamespace = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(ancestor)/ns/mnt")
        for pid in processes {
            let namespace = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/mnt")
            XCTAssertNotNil(namespace, file: file, line: line)
            XCTAssertNotEqual(namespace, ownNamespace, "web process \(pid) has its own mount namespace", file: file, line: line)
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            XCTAssertTrue(status.split(separator: "\n").contains("Seccomp:\t2"), "web process \(pid) has a seccomp filter", file: file, line: line)
            // What the process sees as its file system: /usr is there, the canary in the home is not.
            XCTAssertTrue(FileManager.default.fileExists(atPath: "/proc/\(pid)/root/usr/lib"), file: file, line: line)
            XCTAssertFalse(FileManager.default.fileExists(atPath: "/proc/\(pid)/root" + canary), "web process \(pid) cannot see \(canary)", file: file, line: line)
            XCTAssertNil(FileManager.default.contents(atPath: "/proc/\(pid)/root" + canary), file: file, line: line)
            XCTAssertTrue(WebProcesses.mappedFiles(pid).contains { $0.hasSuffix("/libPortholeWebExtension.so") },
                          "web process \(pid) runs Porthole's extension", file: file, line: line)
        }
        return processes.count
    }

    func testPageWebProcessesAreSandboxedAndTheSecondLayerStillHolds() throws {
        try XCTSkipUnless(SandboxSetup.availability() == .runs, "bubblewrap cannot run here")
        try MainActor.assumeIsolated {
            let home = try XCTUnwrap(ProcessInfo.processInfo.environment["HOME"])
            let canary = home + "/.porthole-sandbox-canary-\(UUID().uuidString)"
            try "visitor secrets".write(toFile: canary, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: canary) }
            XCTAssertTrue(TestApp.engine.sandboxed, "the test engine is sandboxed as sandbox=auto would have it")
            let server = TestServer()
            defer { server.stop() }
            // The second layer (the extension in the sandboxed process) still refuses a blocked image.
            server.route = { request in
                request.path == "/" ? .html("<!DOCTYPE html><title>Boxed</title><img src='/blocked.png' onerror=\"document.title='refused'\">")
                    : .body("", mimeType: "image/png")
            }
            TestApp.engine.setProxy(server.proxyURI)
            defer { TestApp.engine.setProxy(nil) }
            var configuration = Configuration(sites: SiteList([Site(name: "Boxed", address: "http://boxed.example/")]))
            configuration.subresources = .policy
            configuration.block = ["boxed.example/blocked.png"]
            let window = TestApp.window(configuration: configuration)
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { window.state.title == "refused" }, "the page loads, its blocked image is refused: \(window.state.title ?? "")")
            XCTAssertEqual(server.count(path: "/blocked.png"), 0, "the blocked image never reached the server")
            XCTAssertGreaterThan(Self.assertSandboxed(descendantsOf: getpid(), canary: canary), 0, "the page's web process was checked")
        }
    }
}
