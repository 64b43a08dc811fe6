// The sign-in dialog's memory of the last answer, row by row.
import XCTest
@testable import PortholeCore

final class SignInMemoryTests: XCTestCase {
    private enum Step {
        case answered(String, user: String)
        case opening(String, retry: Bool, expect: (isRetry: Bool, user: String?))
    }

    private func run(_ steps: [Step], line: UInt = #line) {
        var memory = SignInMemory()
        for (index, step) in steps.enumerated() {
            switch step {
            case .answered(let key, let user): memory.answered(key, user: user)
            case .opening(let key, let retry, let expect):
                let got = memory.opening(key, webKitSaysRetry: retry)
                XCTAssertEqual(got.isRetry, expect.isRetry, "step \(index)", line: line)
                XCTAssertEqual(got.user, expect.user, "step \(index)", line: line)
            }
        }
    }

    func testTheTable() {
        // A first dialog is never a retry, whatever WebKit says.
        run([.opening("0 a.example:80 Staff", retry: true, expect: (false, nil))])
        // A refused answer: WebKit's retry for the same key keeps the user name.
        run([.answered("0 a.example:80 Staff", user: "alice"),
             .opening("0 a.example:80 Staff", retry: true, expect: (true, "alice"))])
        // Not a retry by WebKit's word: a new question, no name.
        run([.answered("0 a.example:80 Staff", user: "alice"),
             .opening("0 a.example:80 Staff", retry: false, expect: (false, nil))])
        // A retry for another host, port, realm or proxy: not this answer's retry.
        for other in ["0 b.example:80 Staff", "0 a.example:8080 Staff", "0 a.example:80 Admin", "1 a.example:80 Staff"] {
            run([.answered("0 a.example:80 Staff", user: "alice"), .opening(other, retry: true, expect: (false, nil))])
        }
        // The answer is kept until the next dialog only: a second retry has nothing to keep.
        run([.answered("0 a.example:80 Staff", user: "alice"),
             .opening("0 a.example:80 Staff", retry: true, expect: (true, "alice")),
             .opening("0 a.example:80 Staff", retry: true, expect: (false, nil))])
        // The latest answer is the one kept.
        run([.answered("0 a.example:80 Staff", user: "alice"), .answered("0 a.example:80 Staff", user: "bob"),
             .opening("0 a.example:80 Staff", retry: true, expect: (true, "bob"))])
    }

    func testANewValueRemembersNothing() {
        XCTAssertEqual(SignInMemory(), SignInMemory())
        var used = SignInMemory()
        used.answered("0 a.example:80 Staff", user: "alice")
        XCTAssertNotEqual(used, SignInMemory(), "an answer is held until the next dialog")
    }
}
