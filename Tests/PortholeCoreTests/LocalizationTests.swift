// Translations through the real catalogs (.build/locale, compiled by make from po/): plural
// forms, the pages' lang, the languages sites are asked for, and [Browser] languages=.
import Foundation
import XCTest
@testable import PortholeCore

/// Runs `body` with Porthole speaking `languages` (as `[Browser] languages=` would), then goes
/// back to the environment's language.
func speaking<T>(_ languages: [String], _ body: () throws -> T) throws -> T {
    let directory = try XCTUnwrap(Localization.localeDirectory(),
                                  "no compiled catalogs beside the test binary: run `make locale` (make test does)")
    let previous = ProcessInfo.processInfo.environment["LANGUAGE"]
    Localization.setUp(directory: directory)
    Localization.use(languages: languages)
    defer {
        if let previous { setenv("LANGUAGE", previous, 1) } else { unsetenv("LANGUAGE") }
        Localization.setUp(directory: directory)
    }
    return try body()
}

final class LocalizationTests: XCTestCase {
    func testRussianIdleWarningUsesAllThreePluralForms() throws {
        // CLDR Russian: one (1, 21, 101), few (2-4, 22-24), many (0, 5-20, 25-30, 111-114).
        let rows: [(Int, String)] = [
            (1, "Через 1 секунду"), (21, "Через 21 секунду"), (101, "Через 101 секунду"),
            (2, "Через 2 секунды"), (3, "Через 3 секунды"), (24, "Через 24 секунды"),
            (5, "Через 5 секунд"), (11, "Через 11 секунд"), (12, "Через 12 секунд"), (14, "Через 14 секунд"),
            (20, "Через 20 секунд"), (0, "Через 0 секунд"), (111, "Через 111 секунд"),
        ]
        try speaking(["ru"]) {
            for (count, start) in rows {
                let text = IdleSession.warningText(secondsLeft: count)
                XCTAssertTrue(text.hasPrefix(start), "\(count): \(text)")
            }
            XCTAssertEqual(ExitPinGate.message(for: .wrong(triesLeft: 1)), "Неверный PIN-код. Осталась 1 попытка.")
            XCTAssertEqual(ExitPinGate.message(for: .wrong(triesLeft: 2)), "Неверный PIN-код. Осталось 2 попытки.")
            XCTAssertEqual(ExitPinGate.message(for: .wrong(triesLeft: 5)), "Неверный PIN-код. Осталось 5 попыток.")
        }
    }

    func testChineseHasOneFormForEveryCount() throws {
        try speaking(["zh-TW"]) {
            XCTAssertEqual(PortholePage.countdownText(.retry, secondsLeft: 1), "1 秒後重試。")
            XCTAssertEqual(PortholePage.countdownText(.retry, secondsLeft: 5), "5 秒後重試。")
            XCTAssertEqual(IdleSession.warningTitle(), "您還在嗎？")
        }
        try speaking(["zh-CN"]) {
            XCTAssertEqual(PortholePage.countdownText(.reload, secondsLeft: 1), "1 秒后重新加载。")
            XCTAssertEqual(PortholePage.countdownText(.reload, secondsLeft: 7), "7 秒后重新加载。")
        }
    }

    func testGermanSingularAndPlural() throws {
        try speaking(["de"]) {
            XCTAssertEqual(PortholePage.countdownText(.retry, secondsLeft: 1), "Neuer Versuch in 1 Sekunde.")
            XCTAssertEqual(PortholePage.countdownText(.retry, secondsLeft: 2), "Neuer Versuch in 2 Sekunden.")
            XCTAssertEqual(PortholePage.countdownText(.retry, secondsLeft: 0), "Neuer Versuch läuft …")
        }
    }

    func testEnglishWithoutACatalog() throws {
        try speaking(["en"]) {
            XCTAssertEqual(Localization.activeLanguage(), "en")
            XCTAssertEqual(PortholePage.countdownText(.retry, secondsLeft: 1), "Trying again in 1 second.")
            XCTAssertEqual(PortholePage.countdownText(.retry, secondsLeft: 3), "Trying again in 3 seconds.")
        }
    }

    func testEveryPageCarriesTheActiveLanguage() throws {
        let pages: [(String, () -> String)] = [
            ("start", { PortholePage.start(sites: SiteList([Site(name: "A", address: "a.example")])) }),
            ("fail-closed problems", { PortholePage.configurationProblems(["F:1: [Sites]: no sites"]) }),
            ("error", { PortholePage.error(url: "https://a.example/", message: "x", homeURL: "porthole://start/") }),
            ("blocked", { PortholePage.blocked(url: "https://b.example/", reason: "blocked", homeURL: "porthole://start/") }),
            ("download", { PortholePage.download(url: "https://a.example/f.zip", homeURL: "porthole://start/") }),
            ("retrying", { PortholePage.retrying(url: "https://a.example/", message: "x", secondsLeft: 3, homeURL: nil) }),
            ("crashed", { PortholePage.crashed(url: "https://a.example/", secondsLeft: 3, homeURL: nil) }),
            ("certificate", { PortholePage.certificateError(url: "https://a.example/", problems: ["x"], homeURL: nil) }),
        ]
        let rows: [([String], String, String)] = [
            (["zh-TW", "en"], "<html lang=\"zh-TW\">", "您"),
            (["ru"], "<html lang=\"ru\">", "а"),
            (["de"], "<html lang=\"de\">", "e"),
            (["en"], "<html lang=\"en\">", "e"),
            // No Porthole catalog for Breton: English text, and the page says so.
            (["br"], "<html lang=\"en\">", "e"),
        ]
        for (languages, root, _) in rows {
            try speaking(languages) {
                for (name, build) in pages {
                    XCTAssertTrue(build().contains(root), "\(languages) \(name)")
                }
            }
        }
        try speaking(["zh-TW"]) {
            XCTAssertTrue(PortholePage.blocked(url: "https://b.example/", reason: "x", homeURL: nil)
                .contains("<h1>這個網站不在這個瀏覽器可開啟的網站清單中</h1>"))
        }
    }

    func testBlockedReasonsAreShownTranslatedAndLoggedInEnglish() throws {
        let policy = SitePolicy(configuration: Configuration(sites: SiteList([Site(name: "A", address: "a.example")])))
        try speaking(["ru"]) {
            let wildcard = policy.decide(PolicyRequest(url: "https://b.example/"))
            XCTAssertEqual(wildcard.reason, "blocked by filter \"*\": not on the approved list")
            XCTAssertEqual(wildcard.localizedReason, "заблокировано фильтром \"*\": нет в списке разрешённых")
            let mail = policy.decide(PolicyRequest(url: "mailto:someone@a.example"))
            XCTAssertTrue(mail.reason.hasPrefix("blocked: mailto: URLs are refused"), mail.reason)
            XCTAssertTrue(mail.localizedReason.hasPrefix("заблокировано: URL mailto: отклоняются"), mail.localizedReason)
        }
    }

    func testPagesInARightToLeftLanguageSayDirRTL() throws {
        // A one-message Hebrew catalog, compiled for this test: Porthole ships none yet.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("porthole-he-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/he/LC_MESSAGES", withIntermediateDirectories: true)
        try """
            msgid ""
            msgstr ""
            "Language: he\\n"
            "Content-Type: text/plain; charset=UTF-8\\n"

            msgid "Blocked"
            msgstr "חסום"
            """.write(toFile: dir + "/he.po", atomically: true, encoding: .utf8)
        let msgfmt = Process()
        msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        msgfmt.arguments = ["-o", dir + "/he/LC_MESSAGES/porthole.mo", dir + "/he.po"]
        try msgfmt.run()
        msgfmt.waitUntilExit()
        XCTAssertEqual(msgfmt.terminationStatus, 0)
        let previous = ProcessInfo.processInfo.environment["LANGUAGE"]
        Localization.setUp(directory: dir)
        Localization.use(languages: ["he"])
        defer {
            if let previous { setenv("LANGUAGE", previous, 1) } else { unsetenv("LANGUAGE") }
            Localization.setUp(directory: Localization.localeDirectory())
        }
        let page = PortholePage.blocked(url: "https://b.example/", reason: "x", homeURL: nil)
        XCTAssertTrue(page.contains("<html lang=\"he\" dir=\"rtl\">"), page)
        XCTAssertTrue(page.contains("<title>חסום</title>"), page)
    }

    func testRightToLeftLanguagesGetDir() {
        for tag in ["ar", "he", "fa", "ur", "ar-EG", "yi"] { XCTAssertTrue(Localization.isRightToLeft(tag), tag) }
        for tag in ["en", "zh-TW", "ru", "de", "tr", "az"] { XCTAssertFalse(Localization.isRightToLeft(tag), tag) }
    }

    func testSitesAreAskedForTheLanguagesOfTheLocaleNames() {
        let rows: [([String], [String])] = [
            (["zh_TW.UTF-8", "zh_TW", "zh.UTF-8", "zh", "C"], ["zh-TW", "zh"]),
            (["ru_RU.utf8@latin", "ru_RU", "ru", "C"], ["ru-RU", "ru"]),
            (["de", "en", "C"], ["de", "en"]),
            (["C.UTF-8", "C"], ["en"]),  // not "C", which WebKit's default sent
            (["POSIX"], ["en"]),
            ([], ["en"]),
        ]
        for (names, tags) in rows {
            XCTAssertEqual(Localization.preferredLanguages(fromLocaleNames: names), tags, "\(names)")
        }
    }

    func testLanguagesKeyTakesLanguageTags() {
        for tag in ["zh-TW", "en", "ru", "es-419", "sr-Latn", "gsw"] {
            XCTAssertNil(Localization.languageTagProblem(tag), tag)
        }
        for tag in ["", "zh_TW", "e", "english", "zh-", "-TW", "zh TW", "zh-TW.UTF-8", "日本"] {
            XCTAssertNotNil(Localization.languageTagProblem(tag), tag)
        }
    }

    func testLanguagesKeyIsReadAndValidated() throws {
        let directory = try TemporaryConfigDirectory()
        defer { directory.remove() }
        let good = try directory.write("good.conf", "[Sites]\nA=a.example\n[Browser]\nlanguages=zh-TW;en\n")
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: good), validateFilter: standInFilterValidator)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.configuration?.browser.languages, ["zh-TW", "en"])
        let bad = try directory.write("bad.conf", "[Sites]\nA=a.example\n[Browser]\nlanguages=zh_TW;en\n")
        let problems = ConfigLoader.load(sources: ConfigSources(commandLine: bad), validateFilter: standInFilterValidator)
            .problems.map { $0.description.replacingOccurrences(of: bad, with: "F") }
        XCTAssertEqual(problems, ["F:4: Browser/languages: \"zh_TW\" is not a language tag, like zh-TW, ru or de"])
    }

    func testConfigProblemsKeepTheirMachineReadablePrefix() throws {
        let directory = try TemporaryConfigDirectory()
        defer { directory.remove() }
        let file = try directory.write("p.conf", "[Sites]\nA=a.example\n[Browser]\nzoom=huge\n")
        try speaking(["ru"]) {
            let problems = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: standInFilterValidator)
                .problems.map { $0.description.replacingOccurrences(of: file, with: "F") }
            XCTAssertEqual(problems, ["F:4: Browser/zoom: ожидается число, например 1.25"])
        }
    }

    func testCatalogsAreFoundInstalledOrInTheBuildTree() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("porthole-locale-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for dir in ["\(root)/usr/bin", "\(root)/usr/share/locale/ru/LC_MESSAGES", "\(root)/co/.build/locale/de/LC_MESSAGES",
                    "\(root)/co/.build/x86_64-unknown-linux-gnu/debug", "\(root)/other/bin"] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: "\(root)/usr/share/locale/ru/LC_MESSAGES/porthole.mo", contents: Data()))
        XCTAssertTrue(FileManager.default.createFile(atPath: "\(root)/co/.build/locale/de/LC_MESSAGES/porthole.mo", contents: Data()))
        XCTAssertEqual(Localization.localeDirectory(environment: [:], executable: "\(root)/usr/bin/porthole"),
                       "\(root)/usr/share/locale")
        XCTAssertEqual(Localization.localeDirectory(environment: [:], executable: "\(root)/co/.build/x86_64-unknown-linux-gnu/debug/porthole"),
                       "\(root)/co/.build/locale")
        XCTAssertEqual(Localization.localeDirectory(environment: ["PORTHOLE_LOCALE_DIR": "/x"], executable: "\(root)/usr/bin/porthole"), "/x")
        XCTAssertNil(Localization.localeDirectory(environment: [:], executable: "\(root)/other/bin/porthole"))
    }
}
