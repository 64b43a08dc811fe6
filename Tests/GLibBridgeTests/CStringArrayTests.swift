// withCStringArray: what GLib reads from the array is the strings given, then NULL.
import CGLib
import GLibBridge
import XCTest

final class CStringArrayTests: XCTestCase {
    func testGLibReadsEachStringAndTheEnd() {
        for strings in [[], ["one"], ["a", "", "ünï", "--display=:1"]] {
            let length = withCStringArray(strings) { (array: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>) in g_strv_length(array) }
            XCTAssertEqual(Int(length), strings.count)
            let copied: [String] = withCStringArray(strings) { (array: UnsafeMutablePointer<UnsafePointer<gchar>?>) in
                (0..<strings.count).map { String(cString: array[$0]!) }
            }
            XCTAssertEqual(copied, strings)
        }
    }
}
