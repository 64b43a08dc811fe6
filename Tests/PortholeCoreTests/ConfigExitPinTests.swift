// `--check-config` and the exit PIN: old sha256: lines still work but ask to be re-hashed, and a
// hash every user can read is pointed out.
import Foundation
import XCTest
@testable import PortholeCore

final class ConfigExitPinTests: XCTestCase {
    private var directory: TemporaryConfigDirectory!

    override func setUpWithError() throws { directory = try TemporaryConfigDirectory() }
    override func tearDown() { directory.remove() }

    private let legacy = "sha256:00112233445566778899aabbccddeeff:8c8fb15e510c23192b9ecceb9cc163a6062c5c05faa10a68d900fe73cb0af2f3"
    /// yescrypt of 1234 with the setting $y$j9T$porthole.salt.16$ (libxcrypt's crypt_r).
    private let yescrypt = "$y$j9T$porthole.salt.16$tT5j3eO44tojqUUqssJfS.iButgvkAVQMTdi2hA4hp9"

    private func check(_ hash: String, mode: Int) throws -> (status: Int32, out: [String], err: [String], file: String) {
        let file = try directory.write("kiosk.conf", "[Sites]\nA=a.example\n[Kiosk]\nexit-pin-hash=\(hash)\n")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        var out: [String] = []
        var err: [String] = []
        let status = ConfigCheckCommand.run(path: file, sources: ConfigSources(system: directory.path + "/none.conf"),
                                            validateFilter: standInFilterValidator, out: { out.append($0) }, err: { err.append($0) })
        return (status, out, err, file)
    }

    func testOldSha256LineStillWorksButAsksToBeRehashed() throws {
        let run = try check(legacy, mode: 0o600)
        XCTAssertEqual(run.status, 0, "an old line is not a problem")
        XCTAssertEqual(run.err, ["--config file \(run.file): Kiosk/exit-pin-hash: the old sha256: form can be reversed in milliseconds; make a new line with porthole --hash-pin"])
        XCTAssertEqual(try check(yescrypt, mode: 0o600).err, [], "a yescrypt line needs nothing")
    }

    func testHashReadableByEveryUserIsPointedOut() throws {
        let open = try check(yescrypt, mode: 0o644)
        XCTAssertEqual(open.status, 0)
        XCTAssertEqual(open.err, ["\(open.file): warning: every user can read this file, which holds the exit PIN's hash; let only root and the kiosk user read it (chmod 640, group of the kiosk user)"])
        XCTAssertEqual(try check(yescrypt, mode: 0o640).err, [], "owner and group only")
        XCTAssertEqual(try check("", mode: 0o644).err, [], "no PIN, nothing to protect")
    }
}
