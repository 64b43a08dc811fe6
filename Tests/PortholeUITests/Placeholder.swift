import XCTest

final class PortholeUITestsPlaceholder: XCTestCase {}
