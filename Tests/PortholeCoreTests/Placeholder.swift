import XCTest

final class PortholeCoreTestsPlaceholder: XCTestCase {}
