// The Chrome URLBlocklist/URLAllowlist format, case by case, from its published documentation.
//
// Sources of the expectations:
// [doc]    https://www.chromium.org/administrators/url-blocklist-filter-format
//          (format, "Some examples", the three worked examples, case and scheme rules)
// [policy] https://chromeenterprise.google/policies/#URLBlocklist and #URLAllowlist
//          (the example values: example.com, https://ssl.server.com, hosting.com/bad_path,
//          https://server:8080/path, .exact.hostname.com, file://*, custom_scheme:*, *)
// [edge]   https://learn.microsoft.com/deployedge/edge-learnmmore-url-list-filter%20format
//          (the same format; its tables "Examples of blocked URLs and exceptions")
// [src]    Chromium components/policy/core/browser/url_blocklist_manager.cc,
//          FilterTakesPrecedence, and components/url_matcher/url_util.cc, FilterToComponents:
//          precedence details the page leaves implicit.
import XCTest
import PortholeCore

struct PolicyCase {
    let allow: [String]
    let block: [String]
    let url: String
    let verdict: Verdict
    let filter: String?
    let line: UInt
}

func row(allow: [String] = [], block: [String] = [], _ url: String, _ verdict: Verdict, _ filter: String?,
         line: UInt = #line) -> PolicyCase {
    PolicyCase(allow: allow, block: block, url: url, verdict: verdict, filter: filter, line: line)
}

final class PolicyChromeFormatTests: XCTestCase {
    static let cases: [PolicyCase] = [
        // [doc] "example.com" matches "example.com", "www.example.com" and "sub.www.example.com".
        row(block: ["example.com"], "http://example.com/", .blocked, "example.com"),
        row(block: ["example.com"], "http://www.example.com/", .blocked, "example.com"),
        row(block: ["example.com"], "http://sub.www.example.com/", .blocked, "example.com"),
        row(block: ["example.com"], "https://www.example.com/a/b?c=d", .blocked, "example.com"),
        row(block: ["example.com"], "http://notexample.com/", .allowed, nil),
        row(block: ["example.com"], "http://example.com.other.test/", .allowed, nil),
        row(block: ["example.com"], "http://example.org/", .allowed, nil),
        // [doc] ".www.example.com" only matches exactly "www.example.com".
        row(block: [".www.example.com"], "http://www.example.com/", .blocked, ".www.example.com"),
        row(block: [".www.example.com"], "http://www.example.com/page", .blocked, ".www.example.com"),
        row(block: [".www.example.com"], "http://sub.www.example.com/", .allowed, nil),
        row(block: [".www.example.com"], "http://example.com/", .allowed, nil),

        // [doc] Custom schemes: "custom://*" and "custom:*" are valid and match "custom:app".
        row(block: ["custom:*"], "custom:app", .blocked, "custom:*"),
        row(block: ["custom://*"], "custom:app", .blocked, "custom://*"),
        row(allow: ["custom:*"], block: ["*"], "custom:app", .allowed, "custom:*"),
        row(allow: ["custom://*"], block: ["*"], "CUSTOM:app/x", .allowed, "custom://*"),
        row(allow: ["custom:*"], block: ["*"], "other:app", .blocked, nil),

        // [doc] The scheme and host are case insensitive, path and query case sensitive.
        row(block: ["http://example.com"], "HTTP://Example.com", .blocked, "http://example.com"),
        row(block: ["http://example.com"], "http://example.COM", .blocked, "http://example.com"),
        row(block: ["http://example.com"], "http://example.com", .blocked, "http://example.com"),
        row(block: ["HTTP://EXAMPLE.COM"], "http://www.example.com/", .blocked, "HTTP://EXAMPLE.COM"),
        row(block: ["http://example.com/path?query=1"], "http://example.com/path?Query=1", .allowed, nil),
        row(block: ["http://example.com/path?query=1"], "http://example.com/Path?query=1", .allowed, nil),
        row(block: ["http://example.com/path?query=1"], "http://Example.com/path?query=1", .blocked,
            "http://example.com/path?query=1"),

        // [doc] Searching a match for "http://mail.example.com/mail/inbox": host, then scheme,
        // then port, then path prefix, then the next shorter host.
        row(allow: ["mail.example.com/mail"], block: ["example.com"], "http://mail.example.com/mail/inbox",
            .allowed, "mail.example.com/mail"),
        row(allow: ["https://mail.example.com"], block: ["example.com"], "http://mail.example.com/mail/inbox",
            .blocked, "example.com"),
        row(allow: ["mail.example.com:8080"], block: ["example.com"], "http://mail.example.com/mail/inbox",
            .blocked, "example.com"),
        row(allow: ["mail.example.com:80"], block: ["example.com"], "http://mail.example.com/mail/inbox",
            .allowed, "mail.example.com:80"),
        row(allow: ["mail.example.com/mail/inbox/old"], block: ["example.com"], "http://mail.example.com/mail/inbox",
            .blocked, "example.com"),
        row(allow: ["mail.example.com/mail", "mail.example.com/mail/inbox"], block: ["example.com"],
            "http://mail.example.com/mail/inbox", .allowed, "mail.example.com/mail/inbox"),
        row(allow: ["example.com"], block: ["com"], "http://mail.example.com/mail/inbox", .allowed, "example.com"),
        row(allow: ["example.com"], block: ["com"], "http://mail.other.com/mail/inbox", .blocked, "com"),
        row(allow: ["http://*"], block: ["example.com"], "http://mail.example.com/mail/inbox", .blocked, "example.com"),

        // [doc] "http://example.com" blocks HTTP requests to the domain and its subdomains only.
        row(block: ["http://example.com"], "http://www.example.com/", .blocked, "http://example.com"),
        row(block: ["http://example.com"], "https://example.com/", .allowed, nil),
        row(block: ["http://example.com"], "ftp://example.com/", .allowed, nil),
        // [doc] "https://*" blocks all HTTPS requests to any domain.
        row(block: ["https://*"], "https://anything.example/", .blocked, "https://*"),
        row(block: ["https://*"], "https://192.168.1.2/", .blocked, "https://*"),
        row(block: ["https://*"], "http://anything.example/", .allowed, nil),
        // [doc] "mail.example.com" blocks this domain but not "www.example.com" nor "example.com".
        row(block: ["mail.example.com"], "http://mail.example.com/", .blocked, "mail.example.com"),
        row(block: ["mail.example.com"], "http://www.example.com/", .allowed, nil),
        row(block: ["mail.example.com"], "http://example.com/", .allowed, nil),
        // [doc] ".example.com" blocks exactly "example.com", not its subdomains.
        row(block: [".example.com"], "http://example.com/", .blocked, ".example.com"),
        row(block: [".example.com"], "http://www.example.com/", .allowed, nil),
        // [doc] "*" blocks all requests; only allowlisted URLs are allowed.
        row(block: ["*"], "http://example.com/", .blocked, "*"),
        row(block: ["*"], "https://www.example.org/x?y=z", .blocked, "*"),
        row(allow: ["example.org"], block: ["*"], "https://www.example.org/x?y=z", .allowed, "example.org"),
        // [doc] "*:8080" blocks all requests to port 8080.
        row(block: ["*:8080"], "http://example.com:8080/", .blocked, "*:8080"),
        row(block: ["*:8080"], "https://example.com:8080/x", .blocked, "*:8080"),
        row(block: ["*:8080"], "http://example.com/", .allowed, nil),
        row(block: ["*:8080"], "https://example.com:8443/", .allowed, nil),
        // [doc] "example.com/stuff" blocks any subdomain with "/stuff" as a path prefix.
        row(block: ["example.com/stuff"], "http://www.example.com/stuff", .blocked, "example.com/stuff"),
        row(block: ["example.com/stuff"], "http://example.com/stuff/more", .blocked, "example.com/stuff"),
        row(block: ["example.com/stuff"], "http://example.com/stuffing", .blocked, "example.com/stuff"),
        row(block: ["example.com/stuff"], "http://example.com/other", .allowed, nil),
        row(block: ["example.com/stuff"], "http://example.com/Stuff", .allowed, nil),
        row(block: ["example.com/stuff"], "http://example.com/", .allowed, nil),
        // [doc] "192.168.1.2" blocks requests to this exact IP address.
        row(block: ["192.168.1.2"], "http://192.168.1.2/", .blocked, "192.168.1.2"),
        row(block: ["192.168.1.2"], "https://192.168.1.2:8443/admin", .blocked, "192.168.1.2"),
        row(block: ["192.168.1.2"], "http://192.168.1.20/", .allowed, nil),
        row(block: ["192.168.1.2"], "http://192.168.1.3/", .allowed, nil),
        row(block: ["192.168.1.2"], "http://3232235778/", .blocked, "192.168.1.2"),
        row(block: ["192.168.1.2"], "http://0xc0.0xa8.1.2/", .blocked, "192.168.1.2"),
        // [doc] Any request with "?video=100" is blocked by "*?v*", "*?video*", "*?video=*" and
        // "*?video=100*".
        row(block: ["*?v*"], "http://example.com/?video=100", .blocked, "*?v*"),
        row(block: ["*?video*"], "http://example.com/?video=100", .blocked, "*?video*"),
        row(block: ["*?video=*"], "http://example.com/?video=100", .blocked, "*?video=*"),
        row(block: ["*?video=100*"], "http://example.com/?video=100", .blocked, "*?video=100*"),
        row(block: ["*?video=100*"], "http://example.com/watch?video=1000", .blocked, "*?video=100*"),
        row(block: ["*?video=10"], "http://example.com/?video=100", .allowed, nil),
        row(block: ["*?audio*"], "http://example.com/?video=100", .allowed, nil),
        row(block: ["*?video=*"], "http://example.com/?video", .allowed, nil),
        // [doc] "*?a=1&b=2" blocks the queries "?b=2&a=1", "?a=1&b=2", "?a=1&c=3&b=2".
        row(block: ["*?a=1&b=2"], "http://example.com/?b=2&a=1", .blocked, "*?a=1&b=2"),
        row(block: ["*?a=1&b=2"], "http://example.com/?a=1&b=2", .blocked, "*?a=1&b=2"),
        row(block: ["*?a=1&b=2"], "http://example.com/?a=1&c=3&b=2", .blocked, "*?a=1&b=2"),
        row(block: ["*?a=1&b=2"], "http://example.com/?a=1", .allowed, nil),
        row(block: ["*?a=1&b=2"], "http://example.com/?a=1&b=3", .allowed, nil),
        // [doc] In a blocklist any occurrence of the key-value pair is sufficient.
        row(block: ["youtube.com/watch?v=xyz"], "http://youtube.com/watch?v=123&v=xyz", .blocked, "youtube.com/watch?v=xyz"),
        row(block: ["youtube.com/watch?v=xyz"], "http://youtube.com/watch?v=123", .allowed, nil),
        // [doc] In an allowlist every occurrence of the key must match: allowing
        // "youtube.com/watch?v=V2" does not allow "?v=V1&v=V2", but allows "?v=V2&v=V2".
        row(allow: ["youtube.com/watch?v=V2"], block: ["youtube.com"], "http://youtube.com/watch?v=V1&v=V2",
            .blocked, "youtube.com"),
        row(allow: ["youtube.com/watch?v=V2"], block: ["youtube.com"], "http://youtube.com/watch?v=V2&v=V2",
            .allowed, "youtube.com/watch?v=V2"),
        row(allow: ["youtube.com/watch?v=V2"], block: ["youtube.com"], "http://youtube.com/watch?v=V2",
            .allowed, "youtube.com/watch?v=V2"),
        row(allow: ["youtube.com/watch?v=V*"], block: ["youtube.com"], "http://youtube.com/watch?v=V1&v=X2",
            .blocked, "youtube.com"),
        row(allow: ["youtube.com/watch?v=V*"], block: ["youtube.com"], "http://youtube.com/watch?v=V1&v=V2",
            .allowed, "youtube.com/watch?v=V*"),

        // [doc] Example: allowing only a small set of sites.
        row(allow: ["mail.example.com", "wikipedia.org", "google.com"], block: ["*"], "https://mail.example.com/",
            .allowed, "mail.example.com"),
        row(allow: ["mail.example.com", "wikipedia.org", "google.com"], block: ["*"], "https://en.wikipedia.org/wiki/Cat",
            .allowed, "wikipedia.org"),
        row(allow: ["mail.example.com", "wikipedia.org", "google.com"], block: ["*"], "https://www.google.com/",
            .allowed, "google.com"),
        row(allow: ["mail.example.com", "wikipedia.org", "google.com"], block: ["*"], "https://www.example.com/",
            .blocked, "*"),
        row(allow: ["mail.example.com", "wikipedia.org", "google.com"], block: ["*"], "https://google.com.evil.test/",
            .blocked, "*"),
        // [doc] Example: block a domain except the mail server over HTTPS and the main page.
        row(allow: ["https://mail.example.com", ".example.com", ".www.example.com"], block: ["example.com"],
            "https://mail.example.com/inbox", .allowed, "https://mail.example.com"),
        row(allow: ["https://mail.example.com", ".example.com", ".www.example.com"], block: ["example.com"],
            "http://mail.example.com/inbox", .blocked, "example.com"),
        row(allow: ["https://mail.example.com", ".example.com", ".www.example.com"], block: ["example.com"],
            "http://example.com/", .allowed, ".example.com"),
        row(allow: ["https://mail.example.com", ".example.com", ".www.example.com"], block: ["example.com"],
            "http://www.example.com/", .allowed, ".www.example.com"),
        row(allow: ["https://mail.example.com", ".example.com", ".www.example.com"], block: ["example.com"],
            "http://docs.example.com/", .blocked, "example.com"),
        row(allow: ["https://mail.example.com", ".example.com", ".www.example.com"], block: ["example.com"],
            "http://sub.www.example.com/", .blocked, "example.com"),
        // [doc] Example: block youtube except selected videos.
        row(allow: ["youtube.com/watch?v=V1", "youtube.com/watch?v=V2"], block: ["youtube.com"],
            "https://www.youtube.com/watch?v=V1", .allowed, "youtube.com/watch?v=V1"),
        row(allow: ["youtube.com/watch?v=V1", "youtube.com/watch?v=V2"], block: ["youtube.com"],
            "https://youtube.com/watch?v=V2", .allowed, "youtube.com/watch?v=V2"),
        row(allow: ["youtube.com/watch?v=V1", "youtube.com/watch?v=V2"], block: ["youtube.com"],
            "https://youtube.com/watch?v=V3", .blocked, "youtube.com"),
        row(allow: ["youtube.com/watch?v=V1", "youtube.com/watch?v=V2"], block: ["youtube.com"],
            "https://youtube.com/", .blocked, "youtube.com"),
        row(allow: ["youtube.com/watch?v=V1", "youtube.com/watch?v=V2"], block: ["youtube.com"],
            "https://youtube.com/watch?list=x&v=V1", .allowed, "youtube.com/watch?v=V1"),

        // [doc] The format's exceptions: user:pass ignored, '#' and what follows ignored, a '/' or
        // '.' after the host.
        row(block: ["http://user:pass@ftp.example.com/pub/bigfile.iso"], "http://ftp.example.com/pub/bigfile.iso",
            .blocked, "http://user:pass@ftp.example.com/pub/bigfile.iso"),
        row(block: ["http://user:pass@ftp.example.com/pub/bigfile.iso"], "http://ftp.example.com/pub/other.iso",
            .allowed, nil),
        row(block: ["example.com/page#section"], "http://example.com/page", .blocked, "example.com/page#section"),
        row(block: ["example.com."], "http://www.example.com/", .blocked, "example.com."),
        row(block: ["example.com/"], "http://example.com/", .blocked, "example.com/"),
        row(block: ["example.com/"], "http://example.com", .blocked, "example.com/"),

        // [policy] URLBlocklist example values, one at a time.
        row(block: ["https://ssl.server.com"], "https://ssl.server.com/login", .blocked, "https://ssl.server.com"),
        row(block: ["https://ssl.server.com"], "http://ssl.server.com/login", .allowed, nil),
        row(block: ["hosting.com/bad_path"], "http://www.hosting.com/bad_path/x", .blocked, "hosting.com/bad_path"),
        row(block: ["hosting.com/bad_path"], "http://hosting.com/good_path", .allowed, nil),
        row(block: ["https://server:8080/path"], "https://server:8080/path/x", .blocked, "https://server:8080/path"),
        row(block: ["https://server:8080/path"], "https://server/path", .allowed, nil),
        row(block: ["https://server:8080/path"], "http://server:8080/path", .allowed, nil),
        row(block: [".exact.hostname.com"], "http://exact.hostname.com/", .blocked, ".exact.hostname.com"),
        row(block: [".exact.hostname.com"], "http://www.exact.hostname.com/", .allowed, nil),
        row(block: ["file://*"], "file:///etc/passwd", .blocked, "file://*"),
        row(block: ["custom_scheme:*"], "custom_scheme:anything", .blocked, "custom_scheme:*"),
        row(block: ["*"], "ftp://files.example/pub", .blocked, "*"),
        // [policy] URLAllowlist example values as exceptions to "*".
        row(allow: ["example.com", "https://ssl.server.com", "hosting.com/good_path", "https://server:8080/path",
                    ".exact.hostname.com"], block: ["*"], "https://sub.example.com/", .allowed, "example.com"),
        row(allow: ["example.com", "https://ssl.server.com", "hosting.com/good_path", "https://server:8080/path",
                    ".exact.hostname.com"], block: ["*"], "https://ssl.server.com/", .allowed, "https://ssl.server.com"),
        row(allow: ["example.com", "https://ssl.server.com", "hosting.com/good_path", "https://server:8080/path",
                    ".exact.hostname.com"], block: ["*"], "http://ssl.server.com/", .blocked, "*"),
        row(allow: ["example.com", "https://ssl.server.com", "hosting.com/good_path", "https://server:8080/path",
                    ".exact.hostname.com"], block: ["*"], "https://hosting.com/good_path/1", .allowed, "hosting.com/good_path"),
        row(allow: ["example.com", "https://ssl.server.com", "hosting.com/good_path", "https://server:8080/path",
                    ".exact.hostname.com"], block: ["*"], "https://hosting.com/bad_path", .blocked, "*"),
        row(allow: ["example.com", "https://ssl.server.com", "hosting.com/good_path", "https://server:8080/path",
                    ".exact.hostname.com"], block: ["*"], "https://server:8080/path", .allowed, "https://server:8080/path"),
        row(allow: ["example.com", "https://ssl.server.com", "hosting.com/good_path", "https://server:8080/path",
                    ".exact.hostname.com"], block: ["*"], "https://server/path", .blocked, "*"),
        row(allow: ["example.com", "https://ssl.server.com", "hosting.com/good_path", "https://server:8080/path",
                    ".exact.hostname.com"], block: ["*"], "https://exact.hostname.com/", .allowed, ".exact.hostname.com"),
        row(allow: ["example.com", "https://ssl.server.com", "hosting.com/good_path", "https://server:8080/path",
                    ".exact.hostname.com"], block: ["*"], "https://www.exact.hostname.com/", .blocked, "*"),

        // [edge] "*" blocked, contoso.com and fabrikam.com excepted.
        row(allow: ["contoso.com", "fabrikam.com"], block: ["*"], "https://www.fabrikam.com/", .allowed, "fabrikam.com"),
        row(allow: ["contoso.com", "fabrikam.com"], block: ["*"], "https://contoso.com/", .allowed, "contoso.com"),
        row(allow: ["contoso.com", "fabrikam.com"], block: ["*"], "https://northwind.test/", .blocked, "*"),
        // [edge] contoso.com blocked except the main page and the mail subdomain.
        row(allow: ["mail.contoso.com", ".contoso.com", ".www.contoso.com"], block: ["contoso.com"],
            "https://contoso.com/", .allowed, ".contoso.com"),
        row(allow: ["mail.contoso.com", ".contoso.com", ".www.contoso.com"], block: ["contoso.com"],
            "https://mail.contoso.com/inbox", .allowed, "mail.contoso.com"),
        row(allow: ["mail.contoso.com", ".contoso.com", ".www.contoso.com"], block: ["contoso.com"],
            "https://www.contoso.com/", .allowed, ".www.contoso.com"),
        row(allow: ["mail.contoso.com", ".contoso.com", ".www.contoso.com"], block: ["contoso.com"],
            "https://shop.contoso.com/", .blocked, "contoso.com"),
        // A query filter on the root path: "/" is a prefix of every path.
        row(block: ["example.com/?q=a"], "http://example.com/?q=a", .blocked, "example.com/?q=a"),
        row(block: ["example.com/?q=a"], "http://example.com/search?x=1&q=a", .blocked, "example.com/?q=a"),
        row(block: ["example.com/?q=a"], "http://example.com/?q=b", .allowed, nil),
        row(block: ["example.com/?q=a"], "http://example.com/", .allowed, nil),

        // [doc] + [src] Precedence. The longest host match first.
        row(allow: ["www.example.com"], block: ["example.com"], "http://www.example.com/", .allowed, "www.example.com"),
        row(allow: ["example.com"], block: ["www.example.com"], "http://www.example.com/", .blocked, "www.example.com"),
        row(allow: ["example.com"], block: ["www.example.com"], "http://example.com/", .allowed, "example.com"),
        row(allow: ["example.com"], block: ["www.example.com"], "http://a.www.example.com/", .blocked, "www.example.com"),
        // A non-matching scheme or port sends the search to the next shorter host.
        row(allow: ["https://www.example.com"], block: ["example.com"], "http://www.example.com/", .blocked, "example.com"),
        row(allow: ["www.example.com:8080"], block: ["example.com"], "http://www.example.com:8080/", .allowed,
            "www.example.com:8080"),
        // The longest matching path.
        row(allow: ["example.com/a/b"], block: ["example.com/a"], "http://example.com/a/b/c", .allowed, "example.com/a/b"),
        row(allow: ["example.com/a/b"], block: ["example.com/a"], "http://example.com/a/x", .blocked, "example.com/a"),
        row(allow: ["example.com"], block: ["example.com/private"], "http://example.com/private/x", .blocked,
            "example.com/private"),
        row(allow: ["example.com"], block: ["example.com/private"], "http://example.com/public", .allowed, "example.com"),
        // A longer host beats a longer path.
        row(allow: ["www.example.com"], block: ["example.com/very/long/path"], "http://www.example.com/very/long/path",
            .allowed, "www.example.com"),
        // The most query tokens.
        row(allow: ["example.com/p?a=1&b=2"], block: ["example.com/p?a=1"], "http://example.com/p?a=1&b=2", .allowed,
            "example.com/p?a=1&b=2"),
        row(allow: ["example.com/p?a=1&b=2"], block: ["example.com/p?a=1"], "http://example.com/p?a=1", .blocked,
            "example.com/p?a=1"),
        // On a tie the allow filter takes precedence.
        row(allow: ["example.com"], block: ["example.com"], "http://example.com/", .allowed, "example.com"),
        row(allow: ["example.com/x"], block: ["example.com/x"], "http://example.com/x", .allowed, "example.com/x"),
        row(allow: ["example.com/?q=1"], block: ["example.com/?q=1"], "http://example.com/?q=1", .allowed, "example.com/?q=1"),
        // [src] Scheme and port are filters, not precedence criteria: otherwise equal, allow wins.
        row(allow: ["example.com"], block: ["http://example.com"], "http://example.com/", .allowed, "example.com"),
        row(allow: ["example.com"], block: ["example.com:8080"], "http://example.com:8080/", .allowed, "example.com"),
        // [src] An exact-host filter beats a subdomain filter, even one with a longer path.
        row(allow: ["www.example.com/path/longer"], block: [".www.example.com"], "http://www.example.com/path/longer",
            .blocked, ".www.example.com"),
        row(allow: [".www.example.com"], block: ["www.example.com/a"], "http://www.example.com/a", .allowed,
            ".www.example.com"),
        // [doc] The special '*' host is searched last; [src] the block filter "*" ranks lowest.
        row(allow: ["*/public"], block: ["*"], "http://any.example/public/x", .allowed, "*/public"),
        row(allow: ["*/public"], block: ["*"], "http://any.example/", .blocked, "*"),
        row(allow: ["*"], block: ["*"], "http://any.example/", .allowed, "*"),
        row(allow: ["*"], block: ["example.com"], "http://example.com/", .blocked, "example.com"),
        row(allow: ["*"], block: ["example.com"], "http://other.example/", .allowed, "*"),
        row(allow: ["https://*"], block: ["*"], "https://any.example/", .allowed, "https://*"),
        row(allow: ["https://*"], block: ["*"], "http://any.example/", .blocked, "*"),
        row(allow: ["*:8443"], block: ["*"], "https://any.example:8443/", .allowed, "*:8443"),
        // IP literals are exact-host filters.
        row(allow: ["192.168.1.2"], block: ["*"], "http://192.168.1.2/", .allowed, "192.168.1.2"),
        row(allow: ["192.168.1.2"], block: ["*"], "http://192.168.1.3/", .blocked, "*"),
        row(allow: ["[::1]"], block: ["*"], "http://[0:0::1]:8080/", .allowed, "[::1]"),
        row(allow: ["[::1]:8080"], block: ["*"], "http://[::1]/", .blocked, "*"),

        // [src] The port is compared with the URL's effective port, default ports included.
        row(block: ["example.com:443"], "https://example.com/", .blocked, "example.com:443"),
        row(block: ["example.com:443"], "http://example.com/", .allowed, nil),
        row(block: ["example.com:80"], "http://example.com/", .blocked, "example.com:80"),
        row(block: ["example.com:80"], "http://example.com:8080/", .allowed, nil),
        // Hosts are compared in their canonical ASCII form.
        row(block: ["b\u{00FC}cher.de"], "http://www.xn--bcher-kva.de/", .blocked, "b\u{00FC}cher.de"),
        row(block: ["xn--bcher-kva.de"], "http://B\u{00DC}CHER.de/", .blocked, "xn--bcher-kva.de"),
        row(block: ["EXAMPLE.com"], "http://www.Example.COM./", .blocked, "EXAMPLE.com"),
        // Local files and data URLs, named by their scheme.
        row(allow: ["file:///srv/kiosk/"], block: ["*"], "file:///srv/kiosk/index.html", .allowed, "file:///srv/kiosk/"),
        row(allow: ["file:///srv/kiosk/"], block: ["*"], "file:///etc/passwd", .blocked, nil),
        row(allow: ["file://*"], block: ["*"], "file:///etc/passwd", .allowed, "file://*"),
        row(allow: ["data:text/plain,"], block: ["*"], "data:text/plain,hello", .allowed, "data:text/plain,"),
        row(allow: ["data:text/plain,"], block: ["*"], "data:text/html,<b>hi</b>", .blocked, nil),
    ]

    func testChromeFormatTable() {
        XCTAssertGreaterThanOrEqual(PolicyChromeFormatTests.cases.count, 120)
        for test in PolicyChromeFormatTests.cases {
            let policy = SitePolicy(allow: test.allow, block: test.block)
            XCTAssertEqual(policy.problems, [], "filters of the case", line: test.line)
            let decision = policy.decide(url: test.url)
            XCTAssertEqual(decision.verdict, test.verdict, "\(test.url): \(decision.reason)", line: test.line)
            XCTAssertEqual(decision.filter, test.filter, "deciding filter for \(test.url)", line: test.line)
        }
    }

    /// The same table through `CanonicalURL` first: the already-canonical entry point agrees.
    func testChromeFormatTableThroughCanonicalURL() throws {
        for test in PolicyChromeFormatTests.cases {
            let policy = SitePolicy(allow: test.allow, block: test.block)
            let url = try XCTUnwrap(CanonicalURL(test.url), "canonical \(test.url)", line: test.line)
            let decision = policy.decide(url)
            XCTAssertEqual(decision.verdict, test.verdict, "\(test.url): \(decision.reason)", line: test.line)
            XCTAssertEqual(decision.filter, test.filter, "deciding filter for \(test.url)", line: test.line)
        }
    }

    func testReasonsNameTheDecidingFilter() {
        let policy = SitePolicy(allow: ["apple.com"], block: ["*", "store.apple.com"])
        XCTAssertEqual(policy.decide(url: "https://evil.example/").reason, "blocked by filter \"*\": not on the approved list")
        XCTAssertEqual(policy.decide(url: "https://store.apple.com/").reason, "blocked by filter \"store.apple.com\"")
        XCTAssertEqual(policy.decide(url: "https://www.apple.com/").reason, "allowed by filter \"apple.com\"")
        XCTAssertEqual(SitePolicy(allow: [], block: []).decide(url: "https://apple.com/"),
                       PolicyDecision(verdict: .allowed, filter: nil, reason: "allowed: no filter matches"))
    }
}
