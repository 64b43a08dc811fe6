// What a permission request gets, in kiosk mode and out of it.
import PortholeCore
import XCTest

final class KioskPermissionTests: XCTestCase {
    func testRequestsAreDeniedUnlessGrantedToExactlyThatHost() {
        let privacy = PrivacySettings(grants: [
            PermissionGrant(host: "maps.example", permission: .geolocation),
            PermissionGrant(host: "meet.example", permission: .camera),
            PermissionGrant(host: "meet.example", permission: .microphone),
            PermissionGrant(host: "radio.example", permission: .microphone),
        ])
        let rows: [(PermissionRequest, String?, Bool, String)] = [
            (.permissions([.geolocation]), "maps.example", true, "granted"),
            (.permissions([.geolocation]), "MAPS.example", true, "host case does not matter"),
            (.permissions([.geolocation]), "www.maps.example", false, "not a subdomain"),
            (.permissions([.notifications]), "maps.example", false, "another permission"),
            (.permissions([.camera, .microphone]), "meet.example", true, "both granted"),
            (.permissions([.camera, .microphone]), "radio.example", false, "only the microphone is granted"),
            (.permissions([.microphone]), "radio.example", true, "the microphone alone"),
            (.permissions([]), "meet.example", false, "an empty request"),
            (.deviceInfo, "meet.example", true, "device list with a camera grant"),
            (.deviceInfo, "radio.example", true, "device list with a microphone grant"),
            (.deviceInfo, "maps.example", false, "device list without media grants"),
            (.other("display-capture"), "meet.example", false, "screen capture is never granted"),
            (.other("website-data-access"), "meet.example", false, "storage access"),
            (.permissions([.geolocation]), nil, false, "no host"),
            (.permissions([.geolocation]), "", false, "empty host"),
        ]
        for (request, host, expected, why) in rows {
            XCTAssertEqual(PermissionPolicy.allows(request, host: host, privacy: privacy), expected, why)
        }
    }

    func testDenyAllDeniesEverything() {
        for permission in Permission.allCases {
            XCTAssertFalse(PermissionPolicy.allows(.permissions([permission]), host: "a.example", privacy: PrivacySettings()))
        }
        XCTAssertFalse(PermissionPolicy.allows(.deviceInfo, host: "a.example", privacy: PrivacySettings()))
    }

    func testPermissionQueriesUseTheRegistryNames() {
        // https://w3c.github.io/permissions-registry/ names.
        let rows: [(String, Permission?)] = [
            ("geolocation", .geolocation), ("notifications", .notifications), ("push", .notifications),
            ("camera", .camera), ("microphone", .microphone), ("clipboard-read", .clipboard),
            ("persistent-storage", nil), ("screen-wake-lock", nil), ("", nil),
        ]
        for (name, expected) in rows {
            XCTAssertEqual(PermissionPolicy.permission(queryName: name), expected, name)
        }
    }

    func testRequestNames() {
        XCTAssertEqual(PermissionPolicy.name(of: .permissions([.microphone, .camera])), "camera+microphone")
        XCTAssertEqual(PermissionPolicy.name(of: .deviceInfo), "device-info")
    }

    func testKioskRulesTakeAwayTheWaysOut() {
        var configuration = Configuration()
        configuration.privacy.grants = [PermissionGrant(host: "a.example", permission: .camera)]
        configuration.browser.tlsExceptions = ["intranet.example"]
        let desktop = BrowsingRules(configuration: configuration)
        XCTAssertTrue(desktop.contextMenu)
        XCTAssertTrue(desktop.printing)
        XCTAssertTrue(desktop.fileChooser)
        XCTAssertFalse(desktop.retriesNetworkFailures, "at a desk the error page waits for its reader")
        XCTAssertTrue(desktop.reloadsAfterCrash)
        XCTAssertFalse(desktop.developerTools)
        XCTAssertFalse(desktop.downloads)
        XCTAssertEqual(desktop.privacy, configuration.privacy)
        XCTAssertEqual(desktop.tlsExceptions, ["intranet.example"])

        configuration.kiosk.enabled = true
        let kiosk = BrowsingRules(configuration: configuration)
        XCTAssertFalse(kiosk.contextMenu)
        XCTAssertFalse(kiosk.printing)
        XCTAssertFalse(kiosk.fileChooser)
        XCTAssertTrue(kiosk.retriesNetworkFailures)
        XCTAssertFalse(kiosk.developerTools)
        XCTAssertEqual(kiosk.privacy, configuration.privacy, "grants hold in kiosk mode too")

        configuration.kiosk.printing = true
        XCTAssertTrue(BrowsingRules(configuration: configuration).printing)
    }

    func testKioskSessionsKeepWebsiteDataInMemory() {
        var configuration = Configuration()
        XCTAssertFalse(configuration.keepsWebsiteDataInMemory)
        configuration.kiosk.enabled = true
        XCTAssertFalse(configuration.keepsWebsiteDataInMemory, "a kiosk without sessions may keep a login")
        configuration.kiosk.idleTimeout = 120
        XCTAssertTrue(configuration.keepsWebsiteDataInMemory)
        configuration.kiosk.enabled = false
        configuration.privacy.ephemeral = true
        XCTAssertTrue(configuration.keepsWebsiteDataInMemory)
    }
}
