// One `make install DESTDIR=… PREFIX=/usr` per test process, shared by the tests that check the
// installed tree: the release build it needs is most of the suite's time.
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
    /// on a copy (`copy(to:)`).
    public static func shared() throws -> Install {
        if let made { return made }
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
