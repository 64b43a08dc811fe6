// The kiosk's Sites button: the way to sites 2…n when the header bar (and its Open menu) is gone.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

final class KioskSitesButtonTests: XCTestCase {
    func testTheKioskSitesButtonListsAndOpensTheSites() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html("<title>Page \(request.path)</title>") }
            let window = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [
                Site(name: "Lobby", address: server.url("/lobby")), Site(name: "Map", address: server.url("/map")),
                Site(name: "Menu", address: server.url("/menu")),
            ]))
            defer { TestApp.destroy(window) }
            window.goHome()
            XCTAssertTrue(UI.wait { window.headerTitle == "Page /lobby" })
            guard let button = window.kioskSitesButton else { return XCTFail("no Sites button in kiosk mode") }
            XCTAssertNotEqual(gtk_widget_get_mapped(button), 0, "the Sites button is on screen")
            let items = UI.menuItems(of: button)
            XCTAssertEqual(items.map(\.label), ["Lobby", "Map", "Menu"])
            guard let map = items.first(where: { $0.label == "Map" })?.button else { return XCTFail("no Map item") }
            gtk_button_clicked(map.cast())
            XCTAssertTrue(UI.wait { window.headerTitle == "Page /map" })
            XCTAssertEqual(server.count(path: "/map"), 1)
        }
    }

    func testOneSiteOrSiteMenuFalseLeavesTheBarWithoutSites() {
        MainActor.assumeIsolated {
            let one = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [Site(name: "Only", address: "only.example")]))
            XCTAssertEqual(one.kioskSitesButton.map { gtk_widget_get_visible($0) }, 0, "nothing to choose with one site")
            TestApp.destroy(one)
            let off = TestApp.window(configuration: TestApp.kioskConfiguration(sites: [
                Site(name: "A", address: "a.example"), Site(name: "B", address: "b.example"),
            ]) { $0.kiosk.siteMenu = .off })
            XCTAssertEqual(off.kioskSitesButton.map { gtk_widget_get_visible($0) }, 0, "site-menu=false hides it")
            TestApp.destroy(off)
        }
    }
}
