// Mesa's GL driver loaded ahead, on a thread of its own (issue 26): which file the preload opens.
// That the UI process and its web processes then map that file once, the one Mesa opens, is
// checked on the installed browser (CommandLineTests.testMakeInstallGivesAWorkingBrowserAndUninstallRemovesIt).
import GLDriverPreload
import Foundation
import TestSupport
import XCTest

final class GLDriverPreloadTests: XCTestCase {
    /// The driver `porthole_gl_driver_path` names for `driversPath` (LIBGL_DRIVERS_PATH's value), if any.
    static func driverPath(_ driversPath: String?) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let found = driversPath.map { porthole_gl_driver_path($0, &buffer) } ?? porthole_gl_driver_path(nil, &buffer)
        return found == 1 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// Where the preload looks without LIBGL_DRIVERS_PATH: beside Mesa's EGL library.
    static func defaultDriverPath() -> String { driverPath(nil) ?? "(none)" }

    /// The file's device and inode: the dynamic loader's test of "already loaded".
    static func fileID(_ path: String) -> String? {
        var info = stat()
        return stat(path, &info) == 0 ? "\(info.st_dev):\(info.st_ino)" : nil
    }

    func testTheDriverIsMesasSoftwareRasterizerBesideItsEGLLibrary() {
        let path = Self.defaultDriverPath()
        XCTAssertTrue(path.hasSuffix("/dri/swrast_dri.so"), path)
        XCTAssertTrue(FileManager.default.isReadableFile(atPath: path), path)
        // Canonical: the loader's own name for it is the same whatever symlinks led there.
        XCTAssertEqual(path, (path as NSString).resolvingSymlinksInPath, path)
    }

    func testThePreloadStartsOnceAndFinishingWaitsForTheDriver() throws {
        // Whatever this test process started before, after finishing the driver is loaded and a
        // second start starts nothing.
        _ = porthole_preload_gl_driver()
        porthole_finish_gl_driver_preload()
        XCTAssertNotNil(dlopen(Self.defaultDriverPath(), RTLD_NOW | RTLD_NOLOAD), "the driver is loaded once the preload finished")
        XCTAssertEqual(porthole_preload_gl_driver(), 0, "a second call starts no second thread")
        porthole_finish_gl_driver_preload()
    }

    func testLibGLDriversPathIsFollowedAsMesaFollowsIt() throws {
        let first = TemporaryDirectory()
        let second = TemporaryDirectory()
        defer { first.remove(); second.remove() }
        second.write("swrast_dri.so", "")
        // Mesa looks in the first directory of the list: the preload does too.
        XCTAssertNil(Self.driverPath(first.path + ":" + second.path), "no driver in the first directory")
        let driver = first.write("swrast_dri.so", "")
        XCTAssertEqual(Self.driverPath(first.path + ":" + second.path), (driver as NSString).resolvingSymlinksInPath)
        XCTAssertEqual(Self.driverPath(first.path), (driver as NSString).resolvingSymlinksInPath)
        // A set but empty variable names no directory (the preload looks where Mesa's build does),
        // and a directory name longer than a path can be is none.
        XCTAssertEqual(Self.driverPath(""), Self.defaultDriverPath())
        XCTAssertNil(Self.driverPath(String(repeating: "d", count: Int(PATH_MAX) + 10)))
    }
}
