import XCTest

final class GLibBridgeTestsPlaceholder: XCTestCase {}
