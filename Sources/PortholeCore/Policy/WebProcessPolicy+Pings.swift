// Requests the second layer refuses whatever their URL: their later hops happen where it cannot see.

extension WebProcessPolicy {
    /// Why a request must be refused before it leaves although its URL may be approved, or nil.
    /// An `<a ping>` (hyperlink auditing: `Content-Type: text/ping`, set by WebKit's PingLoader)
    /// has its redirects followed in the network process, where `send-request` is not emitted:
    /// an approved URL answering 307 would send it on to a blocked host. With
    /// `subresources=policy` pings are therefore refused outright; a page's own fetch of that
    /// type is refused with them.
    public func unfollowableRefusal(contentType: String?) -> String? {
        guard subresources == .policy, let contentType,
              let type = contentType.split(separator: ";").first?.filter({ $0 != " " && $0 != "\t" }).lowercased(),
              type == "text/ping" else { return nil }
        return "blocked: a hyperlink-auditing ping (its redirects are followed where the policy cannot see them)"
    }
}
