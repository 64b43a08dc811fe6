// The typed values: exit PIN hashes, permission grants, the fail-closed configuration.
import XCTest
@testable import PortholeCore

final class ConfigValuesTests: XCTestCase {
    func testExitPinHashMatchesOnlyItsPin() throws {
        // Expected hash from Python: hashlib.sha256(bytes.fromhex("0011…eeff") + b"1234").hexdigest()
        let text = "sha256:00112233445566778899aabbccddeeff:8c8fb15e510c23192b9ecceb9cc163a6062c5c05faa10a68d900fe73cb0af2f3"
        let hash = try XCTUnwrap(ExitPinHash(text))
        XCTAssertTrue(hash.matches(pin: "1234"))
        XCTAssertFalse(hash.matches(pin: "1235"))
        XCTAssertFalse(hash.matches(pin: ""))
        XCTAssertEqual(hash.text, text)
        XCTAssertEqual(ExitPinHash(salt: Array(0x00...0xff).filter { $0 % 0x11 == 0 }, pin: "1234"), hash)
        XCTAssertTrue(hash.isLegacy)
        XCTAssertEqual(ExitPinHash(text.uppercased().replacingOccurrences(of: "SHA256", with: "sha256")), hash)
    }

    func testExitPinHashFromCryptMatchesOnlyItsPin() throws {
        // SHA-512-crypt test vector from Ulrich Drepper's "Unix crypt using SHA-256 and SHA-512".
        let vector = try XCTUnwrap(ExitPinHash("$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1"))
        XCTAssertTrue(vector.matches(pin: "Hello world!"))
        XCTAssertFalse(vector.matches(pin: "Hello world"))
        let sha512 = try XCTUnwrap(ExitPinHash.crypt(pin: "1234", method: "$6$"))
        XCTAssertTrue(sha512.text.hasPrefix("$6$"), sha512.text)
        XCTAssertTrue(sha512.matches(pin: "1234"))
        XCTAssertFalse(sha512.matches(pin: "1235"))
        XCTAssertFalse(sha512.isLegacy)
        let yescrypt = try XCTUnwrap(ExitPinHash.crypt(pin: "2468"))
        XCTAssertTrue(yescrypt.text.hasPrefix("$y$"), yescrypt.text)
        XCTAssertTrue(yescrypt.matches(pin: "2468"))
        XCTAssertFalse(yescrypt.matches(pin: "2469"))
        XCTAssertEqual(ExitPinHash(yescrypt.text), yescrypt, "the printed line reads back")
        XCTAssertNotEqual(ExitPinHash.crypt(pin: "2468"), yescrypt, "each hash has its own salt")
    }

    func testExitPinHashRejectsOtherShapes() {
        for text in ["", "sha256", "sha256::" + String(repeating: "0", count: 64), "sha256:0:" + String(repeating: "0", count: 64),
                     "sha256:00:" + String(repeating: "0", count: 62), "sha256:zz:" + String(repeating: "0", count: 64),
                     "sha1:00:" + String(repeating: "0", count: 64), "sha256:00:" + String(repeating: "0", count: 64) + ":00",
                     // crypt(3) strings libxcrypt does not accept as current: unknown, DES-era, MD5.
                     "$q$abc", "$", "$1$salt$hash", "$y$", "$6$", "$6$saltstring",
                     // A yescrypt setting without its hash, and a hash cut short.
                     "$y$j9T$porthole.salt.16$", "$y$j9T$porthole.salt.16$tT5j3eO44tojqUUqssJfS.iButgvkAVQMTdi2hA4hp",
                     "$2b$10$abcdefghijklmnopqrstuu"] {
            XCTAssertNil(ExitPinHash(text), text)
        }
    }

    func testPermissionsAreGrantedToExactlyTheNamedHost() {
        let privacy = PrivacySettings(grants: [PermissionGrant(host: "Maps.Example", permission: .geolocation),
                                               PermissionGrant(host: "[::1]", permission: .camera)])
        XCTAssertTrue(privacy.isGranted(.geolocation, to: "maps.example"))
        XCTAssertFalse(privacy.isGranted(.geolocation, to: "www.maps.example"))
        XCTAssertFalse(privacy.isGranted(.geolocation, to: "maps.example.evil"))
        XCTAssertFalse(privacy.isGranted(.camera, to: "maps.example"))
        XCTAssertTrue(privacy.isGranted(.camera, to: "::1"))
        XCTAssertFalse(PrivacySettings().isGranted(.notifications, to: "maps.example"), "deny-all by default")
    }

    func testTheKioskSitesButtonShowsWhenThereIsAChoiceUnlessSetOtherwise() {
        let one = SiteList([Site(name: "A", address: "a.example")])
        let two = SiteList([Site(name: "A", address: "a.example"), Site(name: "B", address: "b.example")])
        let rows: [(KioskSiteMenu, SiteList, Bool)] = [
            (.auto, SiteList([]), false), (.auto, one, false), (.auto, two, true),
            (.on, SiteList([]), false), (.on, one, true), (.on, two, true),
            (.off, one, false), (.off, two, false),
        ]
        for (mode, sites, shows) in rows {
            XCTAssertEqual(mode.shows(for: sites), shows, "\(mode) with \(sites.sites.count) sites")
        }
        XCTAssertEqual(KioskSettings().siteMenu, .auto)
    }

    func testFailClosedShowsOnlyTheStartPageAndBlocksEverything() {
        var settings = Configuration(sites: SiteList([Site(name: "A", address: "a.example")]), allow: ["b.example"], block: [])
        settings.privacy.grants = [PermissionGrant(host: "a.example", permission: .camera)]
        settings.browser.tlsExceptions = ["a.example"]
        settings.browser.zoom = 2
        let closed = Configuration.failClosed(keeping: settings)
        XCTAssertEqual(closed.sites, SiteList([Site(name: "Start page", address: "porthole://start/")]))
        XCTAssertEqual(closed.allow, [])
        XCTAssertEqual(closed.block, ["*"])
        XCTAssertEqual(closed.privacy.grants, [])
        XCTAssertEqual(closed.browser.tlsExceptions, [])
        XCTAssertEqual(closed.browser.zoom, 2)
    }
}
