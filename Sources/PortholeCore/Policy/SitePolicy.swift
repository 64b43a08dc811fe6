// SitePolicy: the allow and block lists compiled once, and the pure decision for each URL.

/// Decides whether a URL may load, as a pure function of the lists it was made from.
///
/// Web URLs (http, https, ws, wss, ftp) are matched the Chrome way: of all matching filters in
/// both lists the most specific decides (see `URLFilter` for the format): the block filter `*`
/// ranks lowest; an exact-host (`.host`) filter beats a subdomain filter; then the longer host,
/// the longer path, the more query tokens; on a tie allow beats block. No match means allowed,
/// which is why Porthole's default block list is `*`.
///
/// Rules for other URLs, which no filter can override unless it names their scheme:
/// - `porthole:` URLs, the browser's own bundled pages (start, error, blocked), are always
///   allowed; no filter can block them.
/// - `about:blank` and `about:srcdoc` are always allowed: an empty document that carries nothing
///   from elsewhere. Other `about:` URLs are refused like an unknown scheme.
/// - For every other scheme only filters that name the scheme count (`file:///srv/kiosk/`,
///   `file://*`, `data:*`, `javascript:*`, `view-source:*`, `myapp:*`); a scheme-less filter
///   such as `*` or `apple.com` never opens them. The most specific of those decides.
/// - Without such a filter: a `data:` URL is allowed only as a subframe whose `sourceURL` is
///   allowed (top-level `data:` from anywhere is refused); a `blob:` URL is allowed when the
///   origin inside it is allowed (its root URL, or the `sourceURL` when that is on the same
///   origin); WebKit's PDF viewer (`webkit-pdfjs-viewer:`) only as a frame of an allowed page;
///   `javascript:`, `view-source:`, `file:` and unknown schemes are refused.
/// - A URL that cannot be canonicalised is blocked, with the reason.
public final class SitePolicy: Sendable {
    /// Filters that were refused and left out, with the reason.
    public let problems: [FilterError]
    private let index: FilterIndex
    /// For allow filters that come from approved sites, the site's name, by allow position.
    private let sites: [String?]

    /// A policy of exactly these lists; nothing is implied (no `*`, no site list).
    public convenience init(allow: [String], block: [String]) {
        self.init(siteFilters: [], siteNames: [], allow: allow, block: block, problems: [])
    }

    /// Porthole's policy: each approved site contributes an allow filter (see
    /// `URLFilter.approving(_:)`), `allow` adds more, and `block` defaults to `*` so that only
    /// approved URLs load.
    public convenience init(sites: SiteList, allow: [String] = [], block: [String] = ["*"]) {
        var problems: [FilterError] = []
        var filters: [URLFilter] = []
        var names: [String?] = []
        for site in sites.sites {
            do {
                filters.append(try URLFilter.approving(site))
                names.append(site.name)
            } catch {
                problems.append(error)
            }
        }
        self.init(siteFilters: filters, siteNames: names, allow: allow, block: block, problems: problems)
    }

    /// Compiles the lists; refused filters join `problems`. Site filters are the first allow
    /// filters, and `siteNames` runs parallel to them.
    init(siteFilters: [URLFilter], siteNames: [String?], allow: [String], block: [String], problems: [FilterError]) {
        var problems = problems
        var builder = FilterIndex.Builder(capacity: block.count + siteFilters.count + allow.count)
        for text in block {
            do { try builder.add(text, allow: false) } catch { problems.append(error) }
        }
        for filter in siteFilters { builder.add(filter, allow: true) }
        for text in allow {
            do { try builder.add(text, allow: true) } catch { problems.append(error) }
        }
        self.problems = problems
        sites = siteNames
        index = FilterIndex(builder)
    }

    /// The decision for a top-level navigation to `url`.
    public func decide(url: String) -> PolicyDecision {
        decide(PolicyRequest(url: url))
    }

    /// Whether a top-level navigation to `url` is allowed.
    public func isAllowed(_ url: String) -> Bool {
        decide(url: url).isAllowed
    }

    /// The decision for `request`. Canonical http(s) URLs, as WebKit hands them over, are
    /// matched straight from the string's bytes; anything else is canonicalised with GLib first.
    public func decide(_ request: PolicyRequest) -> PolicyDecision {
        var text = request.url
        let fast: PolicyDecision? = text.withUTF8 { bytes in
            guard let (layout, _) = CanonicalURL.fastLayout(bytes) else { return nil }
            return decision(forWeb: URLView(bytes: bytes, layout: layout))
        }
        if let fast { return fast }
        let url: CanonicalURL
        do {
            url = try CanonicalURL.parseWithGUri(request.url)
        } catch {
            return .blocked("blocked: not a valid URL (\(error.reason))",
                            shown: tr("blocked: not a valid URL ({reason})").filled(["reason": error.reason]))
        }
        return decide(url, kind: request.kind, sourceURL: request.sourceURL)
    }

    /// The decision for an already canonical URL.
    public func decide(_ url: CanonicalURL, kind: NavigationKind = .mainFrame, sourceURL: String? = nil) -> PolicyDecision {
        if url.schemeKind.isWeb { return url.withView(decision(forWeb:)) }
        let scheme = url.scheme
        switch scheme {
        case "porthole":
            return SitePolicy.ownPage
        case "about" where url.path == "blank" || url.path == "srcdoc":
            return SitePolicy.emptyDocument
        default:
            break
        }
        if let id = url.withView({ index.best(forScheme: scheme, $0) }) { return decision(forEntry: id) }
        switch scheme {
        case "data":
            return decideData(kind: kind, sourceURL: sourceURL)
        case "blob":
            return decideBlob(url, sourceURL: sourceURL)
        case PDFViewerStyle.scheme:
            return decidePDFViewer(url, kind: kind, sourceURL: sourceURL)
        default:
            let example = scheme == "file" ? "\"file:///srv/kiosk/\"" : "\"\(scheme):*\""
            return .blocked("blocked: \(scheme): URLs are refused unless a filter names the scheme, such as \(example)",
                            shown: tr("blocked: {scheme}: URLs are refused unless a filter names the scheme, such as {example}")
                                .filled(["scheme": scheme, "example": example]))
        }
    }

    private func decision(forWeb url: URLView) -> PolicyDecision {
        index.best(forWeb: url).map(decision(forEntry:)) ?? SitePolicy.noMatch
    }

    private func decision(forEntry id: Int) -> PolicyDecision {
        let entry = index.entries[id]
        let cause: PolicyDecision.Cause
        if entry.allow {
            let position = id - index.blockCount
            cause = .allowFilter(site: position < sites.count ? sites[position] : nil)
        } else {
            cause = entry.isWildcardBlock ? .wildcardBlock : .blockFilter
        }
        return PolicyDecision(verdict: entry.allow ? .allowed : .blocked, filter: index.texts[id], cause: cause)
    }

    /// A `data:` document carries its content in the URL, so it is as trustworthy as the page
    /// that made it: allowed only inside a frame of an allowed page.
    private func decideData(kind: NavigationKind, sourceURL: String?) -> PolicyDecision {
        decideFrame(kind: kind, of: sourceURL,
                    notAFrame: .blocked("blocked: data: URLs load only as frames of an allowed page",
                                        shown: tr("blocked: data: URLs load only as frames of an allowed page")),
                    ofABlockedPage: ("blocked: data: frame of a blocked page", tr("blocked: data: frame of a blocked page")),
                    allowed: "allowed: data: frame of an allowed page")
    }

    /// What may load only as a frame of an allowed page: `notAFrame` unless it is a frame of a
    /// known page, then allowed (`allowed`) or refused (`ofABlockedPage`, English and shown) as
    /// that page is.
    private func decideFrame(kind: NavigationKind, of sourceURL: String?, notAFrame: PolicyDecision,
                             ofABlockedPage: (reason: String, shown: String), allowed: String) -> PolicyDecision {
        guard kind == .subframe, let sourceURL else { return notAFrame }
        let source = decide(PolicyRequest(url: sourceURL))
        guard source.isAllowed else { return .blocked(ofABlockedPage.reason, shown: ofABlockedPage.shown, filter: source.filter) }
        return .allowed(allowed, filter: source.filter)
    }

    /// WebKit shows a PDF in its built-in viewer (PDF.js), a frame of the PDF's own document whose
    /// files WebKit serves from inside itself (`webkit-pdfjs-viewer://pdfjs/…`): nothing leaves
    /// the machine. It is as trustworthy as the page it is a frame of, so it is allowed only as a
    /// frame of an allowed page; never as the whole page, and never naming (`?file=`) a document
    /// the policy refuses, which the viewer would fetch and show.
    private func decidePDFViewer(_ url: CanonicalURL, kind: NavigationKind, sourceURL: String?) -> PolicyDecision {
        // Other schemes are opaque to the policy: the viewer's `//pdfjs/…` is its path.
        guard url.path.lowercased().hasPrefix("//" + PDFViewerStyle.host + "/") else {
            return .blocked("blocked: not WebKit's PDF viewer", shown: tr("blocked: not WebKit's PDF viewer"))
        }
        let notAFrame = PolicyDecision.blocked("blocked: the PDF viewer opens only inside an allowed page",
                                               shown: tr("blocked: the PDF viewer opens only inside an allowed page"))
        if sourceURL?.lowercased().hasPrefix(PDFViewerStyle.scheme + ":") ?? false { return notAFrame }
        let frame = decideFrame(kind: kind, of: sourceURL, notAFrame: notAFrame,
                                ofABlockedPage: ("blocked: the PDF viewer of a blocked page", tr("blocked: the PDF viewer of a blocked page")),
                                allowed: "allowed: the PDF viewer of an allowed page")
        guard frame.isAllowed else { return frame }
        for document in PDFViewerStyle.documents(named: url.query) {
            let named = decide(PolicyRequest(url: document, kind: .subframe, sourceURL: sourceURL))
            guard named.isAllowed else {
                return .blocked("blocked: the PDF viewer names a blocked document", shown: tr("blocked: the PDF viewer names a blocked document"),
                                filter: named.filter)
            }
        }
        return frame
    }

    /// A `blob:` URL names the origin that created it (`blob:https://example.com/uuid`); it may
    /// load when that origin may.
    private func decideBlob(_ url: CanonicalURL, sourceURL: String?) -> PolicyDecision {
        let inner = url.path + (url.query.isEmpty ? "" : "?" + url.query)
        guard let creator = CanonicalURL(inner), let origin = creator.origin else {
            return .blocked("blocked: blob: URL without an origin", shown: tr("blocked: blob: URL without an origin"))
        }
        if let sourceURL, CanonicalURL(sourceURL)?.origin == origin {
            let source = decide(PolicyRequest(url: sourceURL))
            if source.isAllowed { return .allowed("allowed: blob: URL of an allowed page", filter: source.filter) }
        }
        let root = decide(PolicyRequest(url: origin + "/"))
        guard root.isAllowed else {
            return .blocked("blocked: blob: URL of a blocked origin", shown: tr("blocked: blob: URL of a blocked origin"), filter: root.filter)
        }
        return .allowed("allowed: blob: URL of an allowed origin", filter: root.filter)
    }

    private static let noMatch = PolicyDecision.allowed("allowed: no filter matches")
    private static let ownPage = PolicyDecision.allowed("allowed: Porthole's own page")
    private static let emptyDocument = PolicyDecision.allowed("allowed: empty document")
}

extension URLFilter {
    /// The allow filter an approved site contributes.
    ///
    /// - A bare host (`apple.com`) allows that host and its subdomains: the filter is the host.
    ///   A path after it (`apple.com/mac`) only says where the site opens.
    /// - A web URL (`https://www.apple.com/mac/`) allows its host and subdomains over any web
    ///   scheme (`www.apple.com`): Chrome filters without a scheme match http and https alike,
    ///   and a site that redirects between them keeps working. An explicit non-default port is
    ///   kept (`intranet:8080`). The path again only says where the site opens: a page links to
    ///   its own other paths, and narrowing belongs in explicit allow and block filters.
    /// - A `file:` URL allows its directory (`file:///srv/kiosk/index.html` gives
    ///   `file:///srv/kiosk/`).
    /// - Any other scheme is refused.
    public static func approving(_ site: Site) throws(FilterError) -> URLFilter {
        do {
            return try approving(address: site.address, bareHost: site.isBareHost)
        } catch {
            throw FilterError(filter: site.address, reason: tr("site \"{name}\": {reason}").filled(["name": site.name, "reason": error.reason]))
        }
    }

    /// The filter for a site address, or why the policy cannot approve it. The config loader
    /// checks `[Sites]` with this too, so `--check-config` and run time cannot disagree.
    static func approving(address written: String, bareHost: Bool) throws(ParseProblem) -> URLFilter {
        let address = written.trimmingWhitespace
        let fail = { (reason: String) in ParseProblem(reason: reason) }
        let text: String
        if bareHost {
            // In ASCII every byte is a Character (but "\r\n"), so a byte scan finds the same end.
            let ascii = address.withUTF8Bytes { bytes -> String? in
                guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
                let end = bytes.firstIndex { $0 == URLBytes.slash || $0 == URLBytes.question || $0 == URLBytes.hash } ?? bytes.count
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
            }
            if let ascii {
                text = ascii
            } else {
                text = String(address.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
            }
        } else {
            let url: CanonicalURL
            do {
                url = try CanonicalURL.parse(address)
            } catch {
                throw fail(error.reason)
            }
            if url.schemeKind.isWeb {
                let explicitPort = url.port.map { $0 != url.schemeKind.defaultPort } ?? false
                text = url.host + (explicitPort ? ":\(url.port ?? 0)" : "")
            } else if url.schemeKind == .file {
                guard url.host.isEmpty else { throw fail(tr("a file: site must be a local path, such as file:///srv/kiosk/")) }
                let path = url.path
                text = "file://" + String(path[...(path.lastIndex(of: "/") ?? path.startIndex)])
            } else {
                throw fail(tr("only web and file: sites can be approved"))
            }
        }
        do {
            return try URLFilter.parse(text)
        } catch {
            throw fail(error.reason)
        }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and newlines.
    var trimmingWhitespace: String {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let ends = withUTF8Bytes { bytes in (bytes.first.map(isSpace) ?? true) || (bytes.last.map(isSpace) ?? true) }
        guard ends else { return self }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
