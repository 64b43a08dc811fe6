// fontconfig's configuration loaded ahead, on a thread of its own, in each web process (issue 26).
// What the web process gains is measured in docs/performance-choices.md; here: the thread loads
// the configuration the process then uses, once.
import FontConfigPreload
import XCTest

final class FontConfigPreloadTests: XCTestCase {
    func testThePreloadLoadsTheConfigurationThisProcessUsesOnce() {
        // Whatever this test process started before, after finishing the configuration the
        // thread found is the process's current one.
        _ = porthole_preload_fontconfig()
        let found = porthole_finish_fontconfig_preload()
        XCTAssertNotNil(found, "the thread's FcInit returned a configuration")
        XCTAssertEqual(found, porthole_fontconfig_current(), "the configuration the process uses")
        XCTAssertEqual(porthole_preload_fontconfig(), 0, "a second call starts no second thread")
        _ = porthole_finish_fontconfig_preload()
    }
}
