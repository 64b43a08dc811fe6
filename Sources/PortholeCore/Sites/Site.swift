// The approved sites: one ordered list that feeds the Open menu, the start page and the allow filters.

/// One approved site as the admin wrote it.
public struct Site: Sendable, Equatable, Hashable {
    /// The name shown in the Open menu and on the start page.
    public var name: String
    /// The entry as written: a bare host (`apple.com`) or a URL (`https://www.apple.com/mac/`).
    public var address: String

    public init(name: String, address: String) {
        self.name = name
        self.address = address
    }

    /// Whether the entry is a bare host rather than a URL with a scheme.
    public var isBareHost: Bool { !address.withUTF8Bytes { $0.contains(UInt8(ascii: ":")) } || address.hasPrefix("[") }

    /// The URL to load for this site: a bare host opens over HTTPS at its root.
    public var url: String { isBareHost ? "https://\(address)/" : address }
}

/// The ordered site list. The first site is the home page.
public struct SiteList: Sendable, Equatable {
    public var sites: [Site]

    public init(_ sites: [Site]) { self.sites = sites }

    public var home: Site? { sites.first }
    public var isEmpty: Bool { sites.isEmpty }

    /// The site whose name or address equals `nameOrAddress`, for "open-site" requests.
    public func site(named nameOrAddress: String) -> Site? {
        sites.first { $0.name == nameOrAddress } ?? sites.first { $0.address == nameOrAddress || $0.url == nameOrAddress }
    }
}
