// The committed template matches the sources, and every listed language translates all of it.
import Foundation
import XCTest

final class TranslationCatalogTests: XCTestCase {
    /// The checkout's top, found from this file's path.
    private let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    private struct Run { let status: Int32; let output: String }

    private func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C.UTF-8"
        environment.removeValue(forKey: "LANGUAGE")
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    private func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("porthole-\(getpid())-\(name)").path
    }

    private var languages: [String] {
        get throws {
            try String(contentsOfFile: root + "/po/LINGUAS", encoding: .utf8)
                .split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("#") }
        }
    }

    func testTemplateIsUpToDateWithTheSources() throws {
        let pot = temporary("porthole.pot"), potfiles = temporary("POTFILES")
        defer { try? FileManager.default.removeItem(atPath: pot); try? FileManager.default.removeItem(atPath: potfiles) }
        let extraction = try run(["sh", "po/make-pot.sh", pot, potfiles])
        XCTAssertEqual(extraction.status, 0, extraction.output)
        XCTAssertEqual(try String(contentsOfFile: potfiles, encoding: .utf8),
                       try String(contentsOfFile: root + "/po/POTFILES", encoding: .utf8), "po/POTFILES is stale: run make pot")
        // The same messages, contexts and translator comments, wherever in the files they sit.
        let normalize = { (file: String) in try self.run(["msgcat", "--no-location", "--sort-output", "--no-wrap", file]).output }
        XCTAssertEqual(try normalize(pot), try normalize("po/porthole.pot"), "po/porthole.pot is stale: run make pot")
    }

    /// xgettext reads Swift as C: a literal inside an interpolation or a multi-line literal is
    /// lost without an error. Every literal passed to tr/trn/trc must reach the template.
    func testEveryMarkedStringReachesTheTemplate() throws {
        let template = try run(["msgcat", "--no-wrap", "po/porthole.pot"]).output
        let literal = #""((?:[^"\\\n]|\\.)*)""#
        let calls = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.])(tr|trn|trc)\(\s*"# + literal + #"(?:\s*,\s*"# + literal + ")?")
        let files = try String(contentsOfFile: root + "/po/POTFILES", encoding: .utf8).split(separator: "\n")
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for match in calls.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let group = { (index: Int) in Range(match.range(at: index), in: text).map { String(text[$0]) } }
                let (function, first, second) = (group(1)!, group(2)!, group(3))
                let expected: String
                switch function {
                case "trc": expected = "msgctxt \"\(first)\"\nmsgid \"\(second ?? "")\"\n"
                case "trn": expected = "msgid \"\(first)\"\nmsgid_plural \"\(second ?? "")\"\n"
                default: expected = "msgid \"\(first)\"\n"
                }
                // Multi-line messages are split at each \n in the template.
                let flattened = template.replacingOccurrences(of: "\\n\"\n\"", with: "\\n").replacingOccurrences(of: "msgid \"\"\n\"", with: "msgid \"")
                XCTAssertTrue(flattened.contains(expected), "\(file): \(function)(\"\(first)\") is missing from po/porthole.pot")
            }
        }
    }

    /// A call xgettext cannot read (a variable, an interpolation, a multi-line literal) would
    /// stay English in every language without any other test noticing.
    func testEveryTranslationCallTakesPlainStringLiterals() throws {
        let plain = #""(?:[^"\\\n]|\\[^(])*""#
        let call = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.])(tr|trn|trc)\("#)
        let good = try NSRegularExpression(pattern: #"^(tr\(\s*"# + plain + #"\s*\)|(trn|trc)\(\s*"# + plain + #"\s*,\s*"# + plain + ")")
        let sources = FileManager.default.enumerator(atPath: root + "/Sources")!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        var checked = 0
        for file in sources {
            let text = try String(contentsOfFile: root + "/Sources/" + file, encoding: .utf8)
            for match in call.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let start = Range(match.range, in: text)!.lowerBound
                let line = text[text.lineRange(for: start..<start)].trimmingCharacters(in: .whitespacesAndNewlines)
                if line.hasPrefix("//") || line.contains("func tr") { continue }
                let rest = String(text[start...])
                XCTAssertNotNil(good.firstMatch(in: rest, range: NSRange(rest.startIndex..., in: rest)),
                                "\(file): write the English as one plain literal: \(line)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    func testEveryListedLanguageTranslatesEveryMessage() throws {
        XCTAssertEqual(try languages.sorted(), ["de", "es", "fr", "ru", "zh_CN", "zh_TW"])
        for language in try languages {
            // Merged with the template first, so a message the .po lacks counts as untranslated.
            let merged = temporary("\(language).po")
            defer { try? FileManager.default.removeItem(atPath: merged) }
            let merge = try run(["msgmerge", "--quiet", "--no-fuzzy-matching", "-o", merged, "po/\(language).po", "po/porthole.pot"])
            XCTAssertEqual(merge.status, 0, merge.output)
            let check = try run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", merged])
            XCTAssertEqual(check.status, 0, "\(language): \(check.output)")
            XCTAssertTrue(check.output.range(of: #"^\d+ translated messages?\.\n$"#, options: .regularExpression) != nil,
                          "\(language) has untranslated or fuzzy messages: \(check.output)")
            let po = try String(contentsOfFile: root + "/po/\(language).po", encoding: .utf8)
            XCTAssertTrue(po.contains("\"Language: \(language)\\n\""), language)
        }
    }

    func testPluralFormsAreRightForEachLanguage() throws {
        // The CLDR plural rules as gettext writes them (GNU gettext manual, "Plural forms").
        let expected = [
            "de": "nplurals=2; plural=(n != 1);",
            "es": "nplurals=2; plural=(n != 1);",
            "fr": "nplurals=2; plural=(n > 1);",
            "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
            "zh_CN": "nplurals=1; plural=0;",
            "zh_TW": "nplurals=1; plural=0;",
        ]
        for language in try languages {
            let po = try String(contentsOfFile: root + "/po/\(language).po", encoding: .utf8)
            XCTAssertTrue(po.contains("\"Plural-Forms: \(try XCTUnwrap(expected[language], language))\\n\""), language)
        }
    }

    func testTranslationsKeepEveryPlaceholder() throws {
        let placeholder = try NSRegularExpression(pattern: #"\{[a-z]+\}"#)
        func placeholders(_ text: String) -> Set<String> {
            Set(placeholder.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { (text as NSString).substring(with: $0.range) })
        }
        for language in try languages {
            // msgcat --no-wrap gives one line per string; pair each msgid with its msgstr lines.
            let text = try run(["msgcat", "--no-wrap", "po/\(language).po"]).output
            for entry in text.components(separatedBy: "\n\n") where entry.contains("msgid \"") {
                let lines = entry.split(separator: "\n")
                let ids = lines.filter { $0.hasPrefix("msgid") }.map(String.init).joined()
                for translation in lines.filter({ $0.hasPrefix("msgstr") }) {
                    XCTAssertEqual(placeholders(String(translation)), placeholders(ids), "\(language): \(translation)")
                }
            }
        }
    }
}
