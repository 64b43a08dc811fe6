// Nothing hands a URL or a file to another program, at the desk and in kiosk mode (issue 20,
// item 2): judged by which programs a desktop whose every URI handler is a recorder started.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

private let links = [("mail", "mailto:visitor@example.org"), ("phone", "tel:+15555550100"), ("sms", "sms:+15555550100"),
                     ("unknown", "web+porthole:x"), ("ftp", "ftp://example.org/file"), ("file", "file:///etc/passwd"),
                     ("blank", "mailto:new-window@example.org")]

final class ExternalHandoffTests: XCTestCase {
    /// Every door to another program, tried in a child process whose desktop is a trap: the About
    /// window's licence link, label and link-button links, mailto:/tel:/sms:/unknown-scheme/ftp:/
    /// file: links (clicked by the mouse and by script), and the printers the print dialog offers.
    func testNoLinkOrSchemeIsHandedToAnotherProgram() throws {
        try MainActor.assumeIsolated {
            guard ProcessInfo.processInfo.environment[URIHandlerTrap.marker] != nil else {
                let run = try URIHandlerTrap.run("PortholeUITests.ExternalHandoffTests/testNoLinkOrSchemeIsHandedToAnotherProgram")
                XCTAssertEqual(run.status, 0, "the trapped child's own checks: \(run.output)")
                XCTAssertEqual(run.launches, [], "no program was started for a URL: \(run.output.suffix(3000))")
                return
            }
            Self.trappedChild()
        }
    }

    @MainActor
    private static func trappedChild() {
        // The trap holds: GIO's default browser is the recorder.
        let https = g_app_info_get_default_for_uri_scheme("https")
        XCTAssertEqual(https.flatMap { g_app_info_get_id($0) }.map { String(cString: $0) }, "porthole-trap-browser.desktop")
        if let https { g_object_unref(UnsafeMutableRawPointer(https)) }
        let witness = LaunchWitness()
        defer { witness.remove() }
        for kiosk in [false, true] { tryEveryDoor(kiosk: kiosk) }
        XCTAssertEqual(witness.launched, [], "GIO started a program")
        // The witness and the recorder see a launch when there is one.
        XCTAssertTrue(witness.launchControl())
        XCTAssertEqual(witness.launched, ["porthole-trap-browser.desktop"])
    }

    @MainActor
    private static func tryEveryDoor(kiosk: Bool) {
        let server = TestServer()
        let anchors = links.map { id, href in "<a id=\(id) href='\(href)'\(id == "blank" ? " target=_blank" : "")>\(id)</a>" }.joined(separator: " ")
        server.route = { _ in
            .html("<!DOCTYPE html><html><head><title>Links</title></head><body style='margin:0'>"
                  + "<a id=big href='mailto:clicked@example.org' style='display:block;width:400px;height:200px'>mail me</a>\(anchors)</body></html>")
        }
        TestApp.engine.setProxy(server.proxyURI)
        let sites = [Site(name: "Links", address: "http://links.example/")]
        let window = TestApp.window(configuration: kiosk ? TestApp.kioskConfiguration(sites: sites) : Configuration(sites: SiteList(sites)))
        defer {
            TestApp.destroy(window)
            TestApp.engine.setProxy(nil)
            server.stop()
        }
        window.goHome()
        XCTAssertTrue(UI.wait { window.headerTitle == "Links" && !window.coordinator.isLoading }, "the page loads")

        // A mouse click on a mailto: link, then every link clicked by script.
        UI.clickPage(x: 100, y: 100, in: window)
        XCTAssertTrue(UI.wait { window.refusals.contains { $0.uri == "mailto:clicked@example.org" } }, "the mailto: click is refused: \(window.refusals)")
        for (id, href) in links {
            _ = UI.evaluate("document.getElementById('\(id)').click(); 'ok'", in: window)
            // WebKit itself refuses a file: link from a web page, before any decision.
            guard id != "file" else { continue }
            XCTAssertTrue(UI.wait { window.refusals.contains { $0.uri == href } }, "\(href) is refused (kiosk: \(kiosk)): \(window.refusals)")
        }

        // About Porthole (reachable over D-Bus as win.about in kiosk mode too) and its licence link.
        g_action_group_activate_action(OpaquePointer(window.window!), "about", nil)
        var about: UnsafeMutablePointer<GtkWidget>?
        XCTAssertTrue(UI.wait { about = UI.toplevels().first { UI.isA($0, gtk_about_dialog_get_type()) }; return about != nil }, "About opens")
        if let about {
            XCTAssertTrue(emitActivateLink(about, "https://www.gnu.org/licenses/gpl-3.0.html"), "the licence link is handled in the dialog")
            let licence = UI.stringProperty(UnsafeMutableRawPointer(about), "license") ?? ""
            XCTAssertTrue(licence.contains("GNU GENERAL PUBLIC LICENSE"), "the licence is shown inside the dialog: \(licence.prefix(200))")
            gtk_widget_destroy(about)
        }

        // Markup links in any label, and link buttons.
        let label = g_object_ref_sink(UnsafeMutableRawPointer(gtk_label_new(nil)))!
        gtk_label_set_markup(label.assumingMemoryBound(to: GtkLabel.self), "<a href='https://example.org/'>link</a>")
        XCTAssertTrue(emitActivateLink(label.assumingMemoryBound(to: GtkWidget.self), "https://example.org/"))
        g_object_unref(label)
        let button = g_object_ref_sink(UnsafeMutableRawPointer(gtk_link_button_new("https://example.org/button")))!
        gtk_button_clicked(button.assumingMemoryBound(to: GtkButton.self))
        g_object_unref(button)

        // The print dialog's printers: none writes to a file.
        XCTAssertFalse(Self.printers().contains("Print to File"), "printers: \(Self.printers())")
    }

    /// Emits `activate-link` as a label's click does, and returns whether a handler took it.
    @MainActor
    private static func emitActivateLink(_ widget: UnsafeMutablePointer<GtkWidget>, _ uri: String) -> Bool {
        var values = [GValue(), GValue()]
        g_value_init(&values[0], UI.typeOf(widget))
        g_value_set_object(&values[0], UnsafeMutableRawPointer(widget))
        g_value_init(&values[1], GType(16 << 2))  // G_TYPE_STRING
        g_value_set_string(&values[1], uri)
        var result = GValue()
        g_value_init(&result, GType(5 << 2))  // G_TYPE_BOOLEAN
        values.withUnsafeMutableBufferPointer { buffer in
            g_signal_emitv(buffer.baseAddress, g_signal_lookup("activate-link", UI.typeOf(widget)), 0, &result)
        }
        let handled = g_value_get_boolean(&result) != 0
        for index in values.indices { g_value_unset(&values[index]) }
        g_value_unset(&result)
        return handled
    }

    /// The printers every loaded print backend lists (GTK waits for each to finish listing).
    @MainActor
    private static func printers() -> [String] {
        final class Names { var list: [String] = [] }
        let names = Names()
        let callback: GtkPrinterFunc = { printer, data in
            guard let printer, let data, let name = gtk_printer_get_name(printer) else { return 0 }
            Unmanaged<Names>.fromOpaque(data).takeUnretainedValue().list.append(String(cString: name))
            return 0
        }
        gtk_enumerate_printers(callback, Unmanaged.passUnretained(names).toOpaque(), nil, 1)
        return names.list
    }
}
