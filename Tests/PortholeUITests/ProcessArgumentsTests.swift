// The Swift runtime's command line read on first use (issue 26): the answer the installed library's
// runtime gets from ProcessArguments is the one the runtime's own argv grabber gives. (This test
// process runs the toolchain's shared runtime, whose grabber still runs: its answer is the
// reference.) That the installed library links no grabber is checked when it is built: `make
// launcher` fails if the runtime's CommandLine.cpp.o is in the library's link map.
import Foundation
import ProcessArguments
import XCTest

final class ProcessArgumentsTests: XCTestCase {
    func testTheArgumentsAreTheRuntimesOwn() {
        var count: Int32 = -1
        let list = porthole_process_arguments(&count)
        XCTAssertEqual(Int(count), CommandLine.arguments.count)
        let arguments = (0..<Int(count)).map { String(cString: list![$0]!) }
        XCTAssertEqual(arguments, CommandLine.arguments)
        XCTAssertNil(list![Int(count)], "the array ends in NULL, as a C argv does")
    }

    func testTheCommandLineIsReadOnceAndKept() {
        var first: Int32 = 0, second: Int32 = 0
        let a = porthole_process_arguments(&first)
        let b = porthole_process_arguments(&second)
        XCTAssertEqual(a, b, "the second call answers with the same array")
        XCTAssertEqual(first, second)
    }
}
