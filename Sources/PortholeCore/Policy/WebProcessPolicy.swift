// What the web process extension enforces: the policy's inputs, carried to every web process, and
// the decision for each request the web process is about to send.
import CGLib

/// `[Policy] subresources=`: whether the policy governs a page's images, scripts, fetch/XHR,
/// WebSockets, beacons, fonts and media, or only its documents.
public enum SubresourcePolicy: String, Sendable, Equatable, CaseIterable {
    /// Only documents (pages and frames) are decided; subresources load from anywhere, as
    /// Chrome's URLBlocklist does. The default.
    case allow
    /// Subresources to blocked URLs are refused too.
    case policy
}

/// What a request in the web process fetches, as far as the web process can tell.
public enum RequestDestination: Sendable, Equatable {
    /// A page or a frame's document (main frame, iframe, frame, object/embed document), or a
    /// request whose destination is not known.
    case document
    /// Anything a document loads into itself: image, script, style sheet, font, media, fetch/XHR,
    /// beacon, worker script.
    case subresource

    /// What a request fetches, read from the headers WebKit sets in the web process before
    /// `send-request` (pages cannot set `Sec-` headers: forbidden request headers, Fetch §2.2.2):
    /// - `Sec-Fetch-Dest`, which WebKitGTK 2.50 sets for potentially trustworthy URLs only
    ///   (https, localhost): `document` and `iframe` for frames, `image`, `script`, `style`,
    ///   `font`, `video`, `empty` for fetch/XHR/beacon. A value Fetch lists as a subresource
    ///   destination is a subresource; any other (`frame`, `embed`, `object`, unknown) a document.
    /// - Without it (plain http), `Accept`: WebKit gives every navigation, main frame or frame,
    ///   its document Accept (`text/html,application/xhtml+xml,…`), and each subresource type its
    ///   own (`image/…`, `text/css,…`, `*/*`). An Accept that names no HTML type is a subresource;
    ///   a page can set a fetch's Accept to look like a document, which only gets it decided.
    /// - Neither header: a document. The second layer fails closed where it cannot tell.
    public init(secFetchDest: String?, accept: String?) {
        if let secFetchDest {
            self = RequestDestination.subresourceDestinations.contains(secFetchDest.lowercased()) ? .subresource : .document
        } else if let accept, !accept.isEmpty {
            let lowered = accept.lowercased()
            self = lowered.contains("text/html") || lowered.contains("xhtml") ? .document : .subresource
        } else {
            self = .document
        }
    }

    /// Fetch's request destinations (https://fetch.spec.whatwg.org/#concept-request-destination)
    /// that are never a document.
    private static let subresourceDestinations: Set<String> = [
        "audio", "audioworklet", "empty", "font", "image", "json", "manifest", "paintworklet", "report",
        "script", "serviceworker", "sharedworker", "style", "track", "video", "webidentity", "worker", "xslt",
    ]
}

/// The site policy's inputs (sites, allow and block filters) and the subresource rule: a value
/// that travels to each web process as a GVariant and compiles there into the same `SitePolicy`.
public struct WebProcessPolicy: Sendable, Equatable {
    public var sites: [Site]
    public var allow: [String]
    public var block: [String]
    public var subresources: SubresourcePolicy

    public init(sites: [Site], allow: [String] = [], block: [String] = ["*"], subresources: SubresourcePolicy = .allow) {
        self.sites = sites
        self.allow = allow
        self.block = block
        self.subresources = subresources
    }

    /// The policy a configuration asks for (see `SitePolicy.init(configuration:)`).
    public init(configuration: Configuration) {
        self.init(sites: configuration.sites.sites, allow: configuration.allow, block: configuration.block,
                  subresources: configuration.subresources)
    }

    /// The compiled policy, the same one the UI process decides navigations with.
    public func compile() -> SitePolicy {
        SitePolicy(configuration: Configuration(sites: SiteList(sites), allow: allow, block: block))
    }

    /// The name of the user message that carries a new policy to running web processes.
    public static let messageName = "porthole.policy"
    /// The UI process's question to a page's web process (`PageCommand.askPage`), which the
    /// extension answers at once from the page's main thread: no answer means a hung page.
    public static let questionName = "porthole.are-you-there"

    /// GVariant type of `encoded()`: subresource rule, sites (name, address), allow, block.
    public static let variantType = "(sa(ss)asas)"

    /// The policy as a floating GVariant of `variantType`.
    public func encoded() -> OpaquePointer {
        let siteValues = sites.map { site in
            tuple([g_variant_new_string(site.name), g_variant_new_string(site.address)])
        }
        return tuple([g_variant_new_string(subresources.rawValue),
                      array(of: "(ss)", siteValues), stringArray(allow), stringArray(block)])
    }

    /// Reads `encoded()`'s output; nil when `variant` is not of `variantType` or names an
    /// unknown subresource rule.
    public init?(variant: OpaquePointer) {
        guard String(cString: g_variant_get_type_string(variant)) == Self.variantType,
              let subresources = SubresourcePolicy(rawValue: Self.string(variant, 0)) else { return nil }
        let siteArray = g_variant_get_child_value(variant, 1)!
        defer { g_variant_unref(siteArray) }
        var sites: [Site] = []
        for index in 0..<g_variant_n_children(siteArray) {
            let pair = g_variant_get_child_value(siteArray, index)!
            defer { g_variant_unref(pair) }
            sites.append(Site(name: Self.string(pair, 0), address: Self.string(pair, 1)))
        }
        self.init(sites: sites, allow: Self.strings(variant, 2), block: Self.strings(variant, 3), subresources: subresources)
    }

    /// Whether the web process must refuse a request to `url`: the blocking decision, or nil
    /// when the request may go. Documents are always decided (the UI process decided them too;
    /// this is the second layer). Subresources are decided only with `subresources=policy`.
    /// `data:`, `blob:` and `about:` URLs fetch nothing from a host: the UI process alone
    /// decides them as navigations (it knows the frame that made them).
    /// WebKit's PDF viewer is decided as a frame of `pageURL` (the page's main-frame URL), unless
    /// `mainFrame` says the request is for the whole page.
    public func refusal(of url: String, destination: RequestDestination, policy: SitePolicy,
                        pageURL: String? = nil, mainFrame: Bool = false) -> PolicyDecision? {
        if destination == .subresource && subresources == .allow { return nil }
        let scheme = url.prefix { $0 != ":" }.lowercased()
        if scheme == "data" || scheme == "blob" || scheme == "about" { return nil }
        let decision = scheme == PDFViewerStyle.scheme && !mainFrame
            ? policy.decide(PolicyRequest(url: url, kind: .subframe, sourceURL: pageURL))
            : policy.decide(url: url)
        return decision.isAllowed ? nil : decision
    }

    private func tuple(_ children: [OpaquePointer?]) -> OpaquePointer {
        var children = children
        return g_variant_new_tuple(&children, gsize(children.count))
    }

    private func array(of elementType: String, _ children: [OpaquePointer?]) -> OpaquePointer {
        var children = children
        let type = g_variant_type_new(elementType)
        defer { g_variant_type_free(type) }
        return g_variant_new_array(type, &children, gsize(children.count))
    }

    private func stringArray(_ strings: [String]) -> OpaquePointer {
        array(of: "s", strings.map { g_variant_new_string($0) })
    }

    private static func string(_ variant: OpaquePointer, _ index: Int) -> String {
        let child = g_variant_get_child_value(variant, gsize(index))!
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    private static func strings(_ variant: OpaquePointer, _ index: Int) -> [String] {
        let child = g_variant_get_child_value(variant, gsize(index))!
        defer { g_variant_unref(child) }
        return (0..<g_variant_n_children(child)).map { string(child, Int($0)) }
    }
}
