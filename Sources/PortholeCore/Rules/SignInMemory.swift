// What the sign-in dialog keeps between an answer the server refused and WebKit's retry.

/// The user name last answered and what it was for (proxy flag, host, port and realm), so that
/// WebKit's retry after a refusal says so and keeps the name. Nothing else is kept: no password,
/// and only until the next dialog opens. One value per web view, so a visitor session (a new web
/// view) starts with none and nothing one visitor typed reaches the next.
public struct SignInMemory: Sendable, Equatable {
    private var last: Answer?

    private struct Answer: Sendable, Equatable {
        let key: String
        let user: String
    }

    public init() {}

    /// What a dialog opening for `key` shows: whether it is a retry of the last answer (WebKit
    /// says so and the answer was for the same key), and the user name to put back then. The
    /// answer is forgotten either way.
    public mutating func opening(_ key: String, webKitSaysRetry: Bool) -> (isRetry: Bool, user: String?) {
        defer { last = nil }
        guard webKitSaysRetry, let last, last.key == key else { return (false, nil) }
        return (true, last.user)
    }

    /// The visitor answered the dialog for `key` as `user`.
    public mutating func answered(_ key: String, user: String) {
        last = Answer(key: key, user: user)
    }
}
