// The ports browsers refuse to send web requests to, so a load there is explained, not blank.

public enum RestrictedPorts {
    /// The WHATWG Fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#port-blocking),
    /// which WebKit refuses for http(s) without reporting a failed load.
    public static let ports: Set<Int> = [
        1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
        103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
        512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
        995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
        6669, 6679, 6697, 10080,
    ]

    /// The restricted port an http(s) URL names, or nil.
    public static func port(of url: String) -> Int? {
        guard let canonical = CanonicalURL(url), canonical.scheme == "http" || canonical.scheme == "https",
              let port = canonical.port, ports.contains(port) else { return nil }
        return port
    }

    /// What the error page says about it.
    public static func message(port: Int) -> String {
        tr("Port {port} is one that browsers never use for web pages, for safety (it belongs to another kind of service).")
            .replacing("{port}", with: String(port))
    }
}
