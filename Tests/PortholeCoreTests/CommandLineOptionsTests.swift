// The options table: the check before GLib parses, and the values read from it, as tables.
import PortholeCore
import XCTest

final class CommandLineOptionsTests: XCTestCase {
    func testAnUnknownOptionIsFoundWhereverItIs() {
        let rows: [([String], String?)] = [
            ([], nil),
            (["apple.com"], nil),
            (["--kiosk", "--private", "apple.com"], nil),
            (["--config", "-odd-file-name.conf", "--kiosk"], nil),
            (["--config=/etc/p.conf"], nil),
            (["-h"], nil),
            (["-?"], nil),
            (["--kiosks"], "--kiosks"),
            (["apple.com", "-x"], "-x"),
            (["--kiosk=yes"], "--kiosk=yes"),
            (["--", "--not-an-option"], nil),
            (["-"], nil),
            // GTK's own, as `porthole --help-all` lists them: GTK reads them.
            (["--display=:1", "--class", "Kiosk", "--name=porthole-1", "--gtk-module", "m", "--g-fatal-warnings", "--help-gtk"], nil),
            (["--display", "--kiosks"], nil),  // the display's name, however odd
            (["--g-fatal-warnings=yes"], "--g-fatal-warnings=yes"),
            (["--gapplication-service", "--help-gapplication", "--help-all"], nil),
        ]
        for (arguments, unknown) in rows {
            XCTAssertEqual(CommandLineOptions.unknownOption(in: arguments), unknown, "\(arguments)")
        }
    }

    func testTheValueOfAnOptionIsTheLastOneGiven() {
        let rows: [([String], String?)] = [
            ([], nil),
            (["--display=:3"], ":3"),
            (["--display", ":4", "apple.com"], ":4"),
            (["--display=:3", "--display", ":5"], ":5"),
            (["--", "--display=:3"], nil),
            (["--kiosks", "--display=:3"], nil),  // a command line that is refused names nothing
            (["--config", "--display=:3"], nil),  // the config file's name
            (["--display"], nil),
        ]
        for (arguments, display) in rows {
            XCTAssertEqual(CommandLineOptions.value(of: "display", in: arguments), display, "\(arguments)")
        }
    }

    /// `--config` given twice is refused before GLib keeps the last one: counted with the table.
    func testHowOftenAnOptionIsGivenIsReadWithTheTable() {
        let rows: [([String], Int)] = [
            ([], 0),
            (["--config", "a.conf"], 1),
            (["--config=a.conf", "--config", "b.conf"], 2),
            (["--config", "--config"], 1),  // the second is the first one's value
            (["--config", "a.conf", "--", "--config=b.conf"], 1),
            (["--config", "a.conf", "--kiosks", "--config=b.conf"], 2),  // read on past an unknown option
            (["--display", "--config", "--config=a.conf"], 1),  // a display named --config
            (["--configs=a.conf"], 0),
        ]
        for (arguments, count) in rows {
            XCTAssertEqual(CommandLineOptions.count(of: "config", in: arguments), count, "\(arguments)")
        }
    }

    func testEachSpellingIsInTheTableOnce() {
        let spellings = CommandLineOptions.all.flatMap(\.spellings)
        XCTAssertEqual(Set(spellings).count, spellings.count, "\(spellings)")
        XCTAssertEqual(CommandLineOptions.all.filter { $0.argument == .operands }.count, 1)
    }

    /// GOption shows Porthole's own with their help; GLib's and GTK's write their own.
    func testPortholesOwnOptionsSayWhatTheyDo() {
        for option in CommandLineOptions.all {
            XCTAssertEqual(option.owner == .porthole && option.argument != .operands, !option.help.isEmpty, option.name)
        }
    }
}
