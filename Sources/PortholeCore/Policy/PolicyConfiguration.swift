// Where the configuration meets the site policy: filter checking and the policy a config yields.

extension URLFilter {
    /// Checks a `[Policy]` entry the way the policy will read it: the reason it is invalid, or nil.
    public static let validator: FilterValidator = { text in
        do throws(FilterError) {
            _ = try URLFilter.parse(text)
            return nil
        } catch {
            return error.reason
        }
    }
}

extension SitePolicy {
    /// The policy a configuration asks for: its sites' allow filters, its extra allow filters, and
    /// its block list (`*` unless the admin says otherwise). Porthole's own pages in the site list
    /// (`porthole://start/`) need no filter: the policy always allows them.
    public convenience init(configuration: Configuration) {
        let webSites = configuration.sites.sites.filter { !$0.url.lowercased().hasPrefix(PortholePage.scheme + ":") }
        self.init(sites: SiteList(webSites), allow: configuration.allow, block: configuration.block)
    }
}
