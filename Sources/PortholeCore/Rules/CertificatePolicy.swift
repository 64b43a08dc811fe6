// What a certificate error gets: an error page with no way on, unless the admin named the host.
import CGLib

public enum CertificatePolicy {
    public enum Decision: Sendable, Equatable {
        /// The admin lists the host in `[Browser] tls-exceptions=`: accept this certificate for it.
        /// The host is lowercased, IPv6 without brackets.
        case acceptForHost(String)
        /// Show the certificate error page; there is no button to continue anyway.
        case refuse
    }

    /// Decides a certificate error on `url`. A host is an exception only when listed exactly
    /// (case-insensitively, IPv6 with or without brackets): an exception for `example.org` does
    /// not cover `www.example.org`.
    public static func decide(url: String, exceptions: [String]) -> Decision {
        guard let host = URLHelpers.host(of: url), !host.isEmpty else { return .refuse }
        let wanted = normalized(host)
        return exceptions.contains { normalized($0) == wanted } ? .acceptForHost(wanted) : .refuse
    }

    private static func normalized(_ host: String) -> String {
        let lower = host.lowercased()
        return lower.hasPrefix("[") && lower.hasSuffix("]") ? String(lower.dropFirst().dropLast()) : lower
    }

    /// What is wrong with a certificate, one sentence per GTlsCertificateFlags bit.
    public static func problems(flags: UInt32) -> [String] {
        let texts: [(GTlsCertificateFlags, String)] = [
            (G_TLS_CERTIFICATE_UNKNOWN_CA, tr("The certificate is not signed by an authority this computer trusts.")),
            (G_TLS_CERTIFICATE_BAD_IDENTITY, tr("The certificate belongs to a different site.")),
            (G_TLS_CERTIFICATE_NOT_ACTIVATED, tr("The certificate is not valid yet.")),
            (G_TLS_CERTIFICATE_EXPIRED, tr("The certificate has expired.")),
            (G_TLS_CERTIFICATE_REVOKED, tr("The certificate has been revoked.")),
            (G_TLS_CERTIFICATE_INSECURE, tr("The certificate uses an insecure algorithm.")),
            (G_TLS_CERTIFICATE_GENERIC_ERROR, tr("The certificate could not be checked.")),
        ]
        let found = texts.filter { flags & $0.0.rawValue != 0 }.map(\.1)
        return found.isEmpty ? [tr("The certificate could not be checked.")] : found
    }
}
