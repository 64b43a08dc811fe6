// The installed binary stays small: no module of the `porthole` product imports full Foundation,
// whose static copy brings ICU's data and most of the binary's size (73.9 MB against 24.4 MB).
import Foundation
import XCTest

final class BinarySizeTests: XCTestCase {
    func testInstalledBinaryLeavesFullFoundationOut() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
        var offenders: [String] = []
        for module in ["porthole", "PortholeUI", "PortholeCore", "GLibBridge"] {
            let root = sources.appendingPathComponent(module)
            let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
            XCTAssertFalse(files.isEmpty, "no sources found under \(root.path)")
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                let imports = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                if imports.contains(where: { $0 == "import Foundation" || $0.hasPrefix("import Foundation.")
                    || $0 == "import FoundationInternationalization" }) {
                    offenders.append("\(module)/\(file)")
                }
            }
        }
        XCTAssertEqual(offenders, [], "use FoundationEssentials (or no Foundation) in the porthole product")
    }
}
