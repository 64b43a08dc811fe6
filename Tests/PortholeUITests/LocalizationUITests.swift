// Porthole in Traditional Chinese and Russian: the window, the idle warning and the Blocked
// page read in the visitor's language, and sites are asked for it (Accept-Language).
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI
import TestSupport
import XCTest

final class LocalizationUITests: XCTestCase {
    @MainActor private static func labels(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        UI.descendants(of: widget).compactMap { child in
            let instance = UnsafeMutableRawPointer(child).assumingMemoryBound(to: GTypeInstance.self)
            guard g_type_check_instance_is_a(instance, gtk_label_get_type()) != 0 else { return nil }
            return gtk_label_get_text(child.cast()).map { String(cString: $0) }
        }
    }

    /// The window, the Blocked page and Accept-Language in one language; a fresh engine, because
    /// WebKit takes the preferred languages when its context is made.
    @MainActor private static func checkWindowAndBlockedPage(open: String, tooltip: String, blockedHeading: String,
                                           lang: String, acceptLanguage: String, navigatorLanguages: String) throws {
        do {
            let server = TestServer()
            defer { server.stop() }
            server.route = { _ in .html("<!DOCTYPE html><title>Home</title><p>home</p>") }
            let configuration = Configuration(sites: SiteList([Site(name: "Home", address: server.url("/home"))]))
            let engine = BrowserEngine(sites: configuration.sites, ephemeral: true)
            let window = BrowserWindow(application: TestApp.application, engine: engine,
                                       options: BrowserOptions(configuration: configuration, policy: SitePolicy(configuration: configuration)))
            window.show()
            defer { TestApp.close(window) }
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: server.url("/home")))

            XCTAssertEqual(labels(in: window.openMenuButton), [open], "the Open button's label")
            XCTAssertEqual(gtk_widget_get_tooltip_text(window.openMenuButton).map { String(cString: $0) }, tooltip)
            XCTAssertEqual(server.acceptLanguage["/home"], acceptLanguage, "what the site was asked for")
            XCTAssertEqual(UI.evaluate("navigator.languages.join(',')", in: window), navigatorLanguages)

            window.load(url: "https://blocked.example/")
            XCTAssertTrue(UI.wait { UI.evaluate("document.querySelector('h1') ? document.querySelector('h1').textContent : ''", in: window) == blockedHeading },
                          "the Blocked page's heading")
            XCTAssertEqual(UI.evaluate("document.documentElement.lang", in: window), lang)
            XCTAssertEqual(server.requests.filter { $0.host == "blocked.example" }.count, 0)
        }
    }

    @MainActor private static func checkIdleWarning(title: String, countdown pattern: String) throws {
        do {
            let configuration = TestApp.kioskConfiguration(sites: [Site(name: "Start", address: PortholePage.startURL)]) {
                $0.kiosk.idleTimeout = 1
                $0.kiosk.idleWarning = 3
            }
            // The idle second passes on a clock the test advances.
            let clock = ManualClock()
            let window = TestApp.window(configuration: configuration, clock: clock)
            defer { TestApp.destroy(window) }
            let kiosk = try XCTUnwrap(window.kiosk)
            window.goHome()
            XCTAssertTrue(UI.waitForLoad(window, uri: PortholePage.startURL))
            UI.press(UInt32(GDK_KEY_a), in: window)  // a visitor was here
            clock.advance(by: 1)
            XCTAssertTrue(kiosk.isIdleWarningVisible)
            XCTAssertNotNil(kiosk.idleWarningText.range(of: pattern, options: .regularExpression), kiosk.idleWarningText)
            XCTAssertTrue(labels(in: window.window!).contains(title), "the warning's title")
        }
    }

    func testTraditionalChineseWindowBlockedPageAndSites() throws {
        try speaking(["zh-TW"]) { try MainActor.assumeIsolated {
            try Self.checkWindowAndBlockedPage(open: "開啟", tooltip: "開啟核准的網站", blockedHeading: "這個網站不在這個瀏覽器可開啟的網站清單中",
                                          lang: "zh-TW", acceptLanguage: "zh-TW,zh;q=0.90", navigatorLanguages: "zh-TW")
        } }
    }

    func testTraditionalChineseIdleWarningCountsDown() throws {
        try speaking(["zh-TW"]) { try MainActor.assumeIsolated {
            try Self.checkIdleWarning(title: "您還在嗎？", countdown: "^畫面將在 [123] 秒後重新開始")
        } }
    }

    func testRussianWindowBlockedPageAndSites() throws {
        try speaking(["ru"]) { try MainActor.assumeIsolated {
            try Self.checkWindowAndBlockedPage(open: "Открыть", tooltip: "Открыть разрешённый сайт", blockedHeading: "Этого сайта нет в списке сайтов, которые открывает этот браузер",
                                          lang: "ru", acceptLanguage: "ru", navigatorLanguages: "ru")
        } }
    }

    func testHelpAndConfigProblemsInRussianWithTheDevelopmentBuildsCatalogs() throws {
        try MainActor.assumeIsolated {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let bad = dir.write("bad.conf", "[Sites]\nApple=apple.com\n[Browser]\njavascript=maybe\nlanguages=ru_RU\n")
            let env = ["XDG_CONFIG_HOME": dir.path + "/none", "LC_ALL": "C.UTF-8", "LANGUAGE": "ru"]
            let help = try Subprocess.run(BuildProducts.porthole, ["--help"], environment: env)
            XCTAssertEqual(help.status, 0, help.stderr)
            XCTAssertTrue(help.stdout.contains("--config=ФАЙЛ"), help.stdout)
            XCTAssertTrue(help.stdout.contains("Показать версию и выйти"), help.stdout)
            XCTAssertTrue(help.stdout.contains("Porthole показывает только сайты, разрешённые его конфигурацией."), help.stdout)
            // With no locale at all (LANG unset, as in a fresh container), LANGUAGE still counts.
            var bare = env
            bare["LC_ALL"] = "C"
            let bareHelp = try Subprocess.run(BuildProducts.porthole, ["--help"], environment: bare)
            XCTAssertTrue(bareHelp.stdout.contains("Показать версию и выйти"), bareHelp.stdout)

            let check = try Subprocess.run(BuildProducts.porthole, ["--check-config", bad], environment: env)
            XCTAssertEqual(check.status, 1)
            let lines = check.stderr.split(separator: "\n").map(String.init)
            XCTAssertTrue(lines.contains("\(bad):4: Browser/javascript: ожидается true или false"), check.stderr)
            XCTAssertTrue(lines.contains("\(bad):5: Browser/languages: \"ru_RU\" — не языковой тег, такой как zh-TW, ru или de"), check.stderr)
        }
    }

    /// The real binary in C.UTF-8 with no LANGUAGE and no `languages=`: WebKit's default sent
    /// `Accept-Language: C`; the browser speaks English there and asks sites for English.
    func testCLocaleAsksSitesForEnglishNotC() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            let home = TemporaryDirectory()
            let bus = try PrivateBus()
            var browser: Subprocess?
            defer { browser?.stop(); bus.stop(); server.stop(); home.remove() }
            server.route = { _ in .html("<!DOCTYPE html><title>Home</title><p>home</p>") }
            let config = home.write("porthole.conf", "[Sites]\nHome=\(server.url("/home"))\n")
            var environment = bus.environment(home: home)
            environment["LC_ALL"] = "C.UTF-8"
            environment["LANG"] = "C.UTF-8"
            environment["LANGUAGE"] = ""
            browser = try Subprocess(BuildProducts.porthole, ["--config", config], environment: environment)
            XCTAssertTrue(UI.wait(30) { server.count(path: "/home") == 1 }, browser?.stderr ?? "")
            XCTAssertEqual(server.acceptLanguage["/home"], "en")
        }
    }

    /// The real binary in C.UTF-8 with no LANGUAGE: `[Browser] languages=ru` alone turns it
    /// Russian, for sites (Accept-Language) and for its own messages.
    func testLanguagesKeyMakesTheBrowserRussianInACLocale() throws {
        try MainActor.assumeIsolated {
            let server = TestServer()
            let home = TemporaryDirectory()
            let bus = try PrivateBus()
            var browser: Subprocess?
            defer { browser?.stop(); bus.stop(); server.stop(); home.remove() }
            server.route = { _ in .html("<!DOCTYPE html><title>Home</title><p>home</p>") }
            let config = home.write("porthole.conf", "[Sites]\nHome=\(server.url("/home"))\n[Browser]\nlanguages=ru\n")
            var environment = bus.environment(home: home)
            environment["LC_ALL"] = "C.UTF-8"
            environment["LANGUAGE"] = ""
            browser = try Subprocess(BuildProducts.porthole, ["--config", config], environment: environment)
            XCTAssertTrue(UI.wait(30) { server.count(path: "/home") == 1 }, browser?.stderr ?? "")
            XCTAssertEqual(server.acceptLanguage["/home"], "ru")
            // The running browser answers a second start in its own language.
            let second = try Subprocess.run(BuildProducts.porthole, ["--config", config], environment: environment)
            XCTAssertEqual(second.status, 0, second.stderr)
            XCTAssertTrue(second.stderr.contains("porthole: уже запущен; его конфигурация не меняется"), second.stderr)
        }
    }

    func testMakeInstallShipsTheTranslationsTheInstalledBinaryFinds() throws {
        try MainActor.assumeIsolated {
            // The tree `make install` gave, shared with CommandLineTests (which checks that
            // `make uninstall` removes these catalogs too).
            let install = try InstalledTree.shared()
            XCTAssertEqual(install.status, 0, install.stderr)
            let catalogs = ["de", "es", "fr", "ru", "zh_CN", "zh_TW"].map { install.destdir + "/usr/share/locale/\($0)/LC_MESSAGES/porthole.mo" }
            for file in catalogs { XCTAssertTrue(FileManager.default.fileExists(atPath: file), file) }
            // Started from /, far from the checkout's .build/locale.
            let help = try Subprocess(install.destdir + "/usr/bin/porthole", ["--help"],
                                      environment: ["LC_ALL": "C.UTF-8", "LANGUAGE": "zh_TW", "PORTHOLE_LOCALE_DIR": ""], directory: "/")
            XCTAssertTrue(help.wait())
            XCTAssertTrue(help.stdout.contains("顯示版本後結束"), help.stdout)
        }
    }

    func testRussianIdleWarningCountsDownInTheRightForm() throws {
        try speaking(["ru"]) { try MainActor.assumeIsolated {
            // The warning shows 3 (or, on a slow machine, 2) seconds: "секунды", the form for 2-4.
            try Self.checkIdleWarning(title: "Вы ещё здесь?", countdown: "^Через [23] секунды экран будет сброшен")
        } }
    }
}
