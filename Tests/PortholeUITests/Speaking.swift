// Tests in another of Porthole's languages.
import Foundation
import PortholeCore
import XCTest

/// Runs `body` with Porthole's messages in `languages` (as `[Browser] languages=` sets them:
/// LANGUAGE set before any window exists), then back in the language the tests started with.
func speaking(_ languages: [String], _ body: () throws -> Void) throws {
    let directory = try XCTUnwrap(Localization.localeDirectory(), "no compiled catalogs: run `make locale` (make test does)")
    let previous = ProcessInfo.processInfo.environment["LANGUAGE"]
    Localization.setUp(directory: directory)
    Localization.use(languages: languages)
    defer {
        if let previous { setenv("LANGUAGE", previous, 1) } else { unsetenv("LANGUAGE") }
        Localization.setUp(directory: directory)
    }
    try body()
}
