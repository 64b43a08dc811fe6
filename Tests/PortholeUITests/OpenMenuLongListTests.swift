// A long approved-site list: the Open menu shows a screenful and a search field, never 20,000 items.
import CWebKitGtk
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

final class OpenMenuLongListTests: XCTestCase {
    @MainActor
    private static func searchEntry(_ window: BrowserWindow) -> UnsafeMutablePointer<GtkWidget>? {
        guard let popover = gtk_menu_button_get_popover(window.openMenuButton.cast()) else { return nil }
        return UI.descendants(of: UnsafeMutablePointer<GtkWidget>(OpaquePointer(popover))).first { widget in
            g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_search_entry_get_type()) != 0
        }
    }

    func testALongSiteListOpensAsAScreenfulWithASearchField() {
        MainActor.assumeIsolated {
            let server = TestServer()
            defer { server.stop() }
            server.route = { request in .html("<!DOCTYPE html><title>\(request.path)</title>") }
            let sites = (0..<20_000).map { Site(name: "Site \($0)", address: server.url("/s\($0)")) }
            let window = TestApp.window(sites: sites)
            defer { TestApp.close(window) }

            let first = UI.openMenuItems(window)
            XCTAssertEqual(first.map(\.label), (0..<SiteSearch.screenful).map { "Site \($0)" }, "a screenful, in list order")
            guard let entry = OpenMenuLongListTests.searchEntry(window) else { return XCTFail("no search field in the Open menu") }
            gtk_entry_set_text(entry.cast(), "site 19999")
            XCTAssertTrue(UI.wait { UI.openMenuItems(window).map(\.label) == ["Site 19999"] }, "typing narrows the list")
            guard let item = UI.openMenuItems(window).first?.button else { return XCTFail("no match") }
            gtk_button_clicked(item.cast())
            XCTAssertTrue(UI.wait { server.count(path: "/s19999") == 1 }, "choosing the match opens that site")

            // A reload with another 20,000 sites reaches the menu (and returns: no freeze).
            var options = window.options
            options.sites = SiteList((0..<20_000).map { Site(name: "Other \($0)", address: server.url("/o\($0)")) })
            window.update(options: options)
            gtk_entry_set_text(entry.cast(), "")
            XCTAssertTrue(UI.wait { UI.openMenuItems(window).first?.label == "Other 0" })

            // Back to a short list: the plain menu again.
            options.sites = SiteList([Site(name: "Only", address: server.url("/only"))])
            window.update(options: options)
            XCTAssertEqual(UI.openMenuItems(window).map(\.label), ["Only"])
        }
    }

    func testTheSearchMatchesEveryWordInNameOrAddress() {
        let sites = [Site(name: "City Library", address: "library.example"), Site(name: "Town hall", address: "hall.example"),
                     Site(name: "Library annex", address: "annex.example/city")]
        XCTAssertEqual(SiteSearch.matches(sites, query: "").shown.map(\.name), ["City Library", "Town hall", "Library annex"])
        XCTAssertEqual(SiteSearch.matches(sites, query: "LIBRARY city").shown.map(\.name), ["City Library", "Library annex"])
        XCTAssertEqual(SiteSearch.matches(sites, query: "hall.example").shown.map(\.name), ["Town hall"])
        XCTAssertEqual(SiteSearch.matches(sites, query: "library", limit: 1).total, 2)
        XCTAssertEqual(SiteSearch.note(shown: 12, total: 20_000), "19988 more sites: type to narrow the list")
        XCTAssertEqual(SiteSearch.note(shown: 0, total: 0), "No site matches")
        XCTAssertNil(SiteSearch.note(shown: 3, total: 3))
    }
}
