// The application object: one engine, windows, actions and the command line.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI

@MainActor
final class PortholeApplication {
    static let applicationID = "dev.porthole.Porthole"

    private let appOwner: ObjectOwner
    private let connections = SignalConnections()
    private var engine: BrowserEngine?
    private var windows: [BrowserWindow] = []
    private var appActions: [SimpleAction] = []
    private var options: BrowserOptions?

    init() {
        let app = gtk_application_new(Self.applicationID, G_APPLICATION_HANDLES_OPEN)!
        appOwner = ObjectOwner(adopting: UnsafeMutableRawPointer(app))
        let object = UnsafeMutableRawPointer(app)
        connections.connect(object, "startup", .plain { [unowned self] in self.startup() })
        connections.connect(object, "activate", .plain { [unowned self] in self.activate(loading: nil) })
        connections.connect(object, "open", .pointer { [unowned self] _ in
            // "open" passes (GFile **files, gint n_files, gchar *hint); read them via the stash.
            self.activate(loading: self.pendingURIs.first)
        })
    }

    private var application: UnsafeMutablePointer<GtkApplication> { appOwner.typed()! }
    private var pendingURIs: [String] = []

    func run(_ arguments: [String]) -> Int32 {
        // GApplication resolves file arguments itself; keep URLs as typed so they stay URLs.
        pendingURIs = arguments.dropFirst().filter { !$0.hasPrefix("-") }.map(Self.uri(forArgument:))
        var cArguments = arguments.map { strdup($0) }
        defer { cArguments.forEach { free($0) } }
        return cArguments.withUnsafeMutableBufferPointer { buffer in
            g_application_run(application.cast(), Int32(buffer.count), buffer.baseAddress)
        }
    }

    static func uri(forArgument argument: String) -> String {
        if argument.contains("://") || argument.hasPrefix("about:") { return argument }
        if FileManager.default.fileExists(atPath: argument) { return URLHelpers.fileURI(forPath: argument) ?? argument }
        return argument.contains(".") ? "https://\(argument)" : argument
    }

    private func startup() {
        BrowserWindow.installAccelerators(on: application)
        appActions.append(SimpleAction(name: "quit", in: UnsafeMutableRawPointer(application)) { [unowned self] in self.quit() })
        let sites = loadSites()
        engine = BrowserEngine(sites: sites)
        options = BrowserOptions(sites: sites) { _ in .allow }
    }

    private func loadSites() -> SiteList {
        guard let dir = DataDirectory.locate() else {
            Log.warning("no bundled data directory found (set PORTHOLE_DATA_DIR)")
            return SiteList([])
        }
        do {
            return try SiteListFile.load(path: dir + "/" + DataDirectory.defaultConfigName)
        } catch {
            Log.warning("\(error)")
            return SiteList([])
        }
    }

    private func activate(loading uri: String?) {
        guard let engine, let options else { return }
        if let window = windows.first {
            if let uri { window.load(url: uri) }
            window.present()
            return
        }
        let window = BrowserWindow(application: application, engine: engine, options: options) { [unowned self] closed in
            self.windows.removeAll { $0 === closed }
        }
        windows.append(window)
        window.show()
        if let uri { window.load(url: uri) } else { window.goHome() }
    }

    private func quit() {
        windows.forEach { $0.close() }
        g_application_quit(application.cast())
    }
}
