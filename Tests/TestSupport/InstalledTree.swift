// One `make install DESTDIR=… PREFIX=/usr` per test run, shared by the tests that check the
// installed tree: the release build it needs would be a third of the suite's time, so `make test`
// runs it beside the tests' build and the tests read its result.
import Foundation

@MainActor
public enum InstalledTree {
    /// What `make install` said, and where it installed.
    public struct Install {
        public let destdir: String
        public let status: Int32
        public let stderr: String
    }

    private static var made: Install?

    /// The tree installed into `.build/test-install` (emptied first) at the first call in this
    /// process. Tests read it and never change it: one that needs to (`make uninstall`) works
    /// on a copy (`copy(to:)`). Under `make test`, which ran that `make install` beside the
    /// tests' build (PORTHOLE_TEST_INSTALL names the tree), it is that run's tree and result.
    public static func shared() throws -> Install {
        if let made { return made }
        if let tree = ProcessInfo.processInfo.environment["PORTHOLE_TEST_INSTALL"], !tree.isEmpty {
            let status = (try? String(contentsOfFile: tree + ".status", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            let stderr = (try? String(contentsOfFile: tree + ".err", encoding: .utf8)) ?? ""
            let result = Install(destdir: tree, status: status.flatMap { Int32($0) } ?? -1,
                                 stderr: status == nil ? "make test's make install left no status in \(tree).status" : stderr)
            made = result
            return result
        }
        let destdir = BuildProducts.packageRoot + "/.build/test-install"
        try? FileManager.default.removeItem(atPath: destdir)
        try FileManager.default.createDirectory(atPath: destdir, withIntermediateDirectories: true)
        let install = try Subprocess.run("/usr/bin/make", ["-C", BuildProducts.packageRoot, "install", "DESTDIR=\(destdir)", "PREFIX=/usr"],
                                         timeout: 900)
        let result = Install(destdir: destdir, status: install.status, stderr: install.stderr)
        made = result
        return result
    }

    /// A copy of the installed tree in `directory` (modes and links kept), for a test that changes it.
    public static func copy(to directory: String) throws -> (status: Int32, stderr: String) {
        let tree = try shared()
        let copy = try Subprocess.run("/bin/cp", ["-a", tree.destdir + "/.", directory])
        return (copy.status, copy.stderr)
    }
}
