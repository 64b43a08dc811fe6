// Porthole's own pages: the start page, the error page and the blocked page, as HTML strings.
import FoundationEssentials

/// The pages Porthole serves itself under the `porthole:` scheme, or shows in place of a failed
/// or refused load.
public enum PortholePage {
    public static let scheme = "porthole"
    /// The bundled start page, listing the approved sites.
    public static let startURL = "porthole://start/"
    /// A link target that takes the view one step back (works with JavaScript off).
    public static let backURL = "porthole://back/"

    /// The page for a `porthole:` URL, or nil when there is no such page.
    /// `namesWhomToAsk`: the start page says whom to ask for another site (at a desk).
    public static func page(for url: String, sites: SiteList, problems: [String] = [], namesWhomToAsk: Bool = false) -> String? {
        guard let rest = url.lowercased().split(separator: ":", maxSplits: 1).last else { return nil }
        let name = rest.trimmingPrefix("//").split(whereSeparator: { $0 == "/" || $0 == "?" || $0 == "#" }).first ?? ""
        switch name {
        case "start", "": return problems.isEmpty ? start(sites: sites, namesWhomToAsk: namesWhomToAsk) : configurationProblems(problems)
        default: return nil
        }
    }

    /// The start page: the approved sites as links, usable with no network at all. With
    /// `namesWhomToAsk` (a desk) it says how to get another site onto the list.
    public static func start(sites: SiteList, namesWhomToAsk: Bool = false) -> String {
        let links = sites.sites
            .filter { !$0.url.lowercased().hasPrefix("\(scheme):") }
            .map { site -> String in
                let label = HTML.escape(site.name)
                let address = HTML.escape(site.address)
                guard let href = HTML.safeHref(site.url) else {
                    return "<li><span class=\"site\">\(label)</span> <span class=\"address\">\(address)</span></li>"
                }
                return "<li><a class=\"site\" href=\"\(href)\">\(label)</a> <span class=\"address\">\(address)</span></li>"
            }
            .joined(separator: "\n")
        let none = tr("No sites are approved yet. Ask the person who set up this computer to add some.")
        let body = links.isEmpty
            ? "<p>\(HTML.escape(none))</p>"
            : "<ul class=\"sites\">\n\(links)\n</ul>"
        let heading = tr("Approved sites")
        let lead = tr("This browser opens the sites below. Choose one to begin.")
        let askText = tr("To open a site that is not listed, ask the person who set up this computer to add it.")
        let ask = namesWhomToAsk && !links.isEmpty ? "<p class=\"ask\">\(HTML.escape(askText))</p>" : ""
        return document(title: tr("Start page"), body: """
            <h1>\(HTML.escape(heading))</h1>
            <p class="lead">\(HTML.escape(lead))</p>
            \(body)
            \(ask)
            """)
    }

    /// Shown instead of the start page while the configuration has problems: the browser then
    /// blocks every navigation until an admin fixes the file (fail closed).
    public static func configurationProblems(_ problems: [String]) -> String {
        let items = problems.map { "<li class=\"problem\">\(HTML.escape($0))</li>" }.joined(separator: "\n")
        // TRANSLATORS: {command} is `porthole --check-config`, shown as code.
        let lead = HTML.escape(tr("Its configuration has problems, so every page is blocked until they are fixed. Ask the person who set up this computer to run {command}."))
            .replacing("{command}", with: "<code>porthole --check-config</code>")
        return document(title: tr("Configuration error"), body: """
            <h1>\(HTML.escape(tr("This browser is not set up correctly")))</h1>
            <p class="lead">\(lead)</p>
            <ul>
            \(items)
            </ul>
            """)
    }

    /// Shown in the view when a load fails: plain words first, then the failing URL, Retry, Back
    /// (when a page comes before it) and Home; the technical reason folded away for whoever
    /// wants it.
    /// `plain`: `message` is in plain words already and leads the page itself.
    public static func error(url: String, message: String, homeURL: String?, canGoBack: Bool = true, plain: Bool = false) -> String {
        let buttons = buttonRow([(tr("Retry"), url), (tr("Back"), canGoBack ? backURL : nil), (tr("Home"), homeURL)])
        let heading = tr("This page could not be loaded")
        let lead = plain ? message : tr("The site could not be reached, or it did not send the page. Try again in a moment.")
        return document(title: tr("Error"), body: """
            <h1>\(HTML.escape(heading))</h1>
            <p class="lead">\(HTML.escape(lead))</p>
            <p class="url">\(HTML.escape(url))</p>
            \(buttons)
            \(plain ? "" : technicalDetails(message))
            """)
    }

    /// The technical reason of a failure, folded away (`<details>` needs no script).
    static func technicalDetails(_ message: String) -> String {
        guard !message.isEmpty else { return "" }
        // TRANSLATORS: the label that unfolds the technical reason on the error page.
        return """
            <details class="admin"><summary>\(HTML.escape(tr("Technical details")))</summary>
            <p class="reason">\(HTML.escape(sentence(message)))</p></details>
            """
    }

    /// Shown in place of a download from an allowed site: the site is fine, but this browser
    /// shows pages and saves no files (the Blocked page would wrongly blame the site).
    public static func download(url: String, homeURL: String?, canGoBack: Bool = true) -> String {
        let buttons = buttonRow([(tr("Back"), canGoBack ? backURL : nil), (tr("Home"), homeURL)])
        // TRANSLATORS: the heading of the page shown instead of a file the site offered to download.
        let heading = tr("This browser doesn't save files")
        let lead = tr("The site offered a file to download. This browser only shows pages, so the file was not saved on this computer.")
        return document(title: tr("File not saved"), body: """
            <h1>\(HTML.escape(heading))</h1>
            <p class="url">\(HTML.escape(url))</p>
            <p class="lead">\(HTML.escape(lead))</p>
            \(buttons)
            """)
    }

    /// Shown in the view when a top-level load is refused by the site policy: plain words for the
    /// person in front of the screen, the filter and reason in a smaller line for the admin.
    /// `canGoBack` false (nothing before this page) leaves out Back; `configurationBroken` says
    /// that the browser is not set up correctly instead of blaming the site.
    /// `namesWhomToAsk` (a desk) adds whom to ask to get the site onto the list.
    public static func blocked(url: String, reason: String, homeURL: String?, canGoBack: Bool = true,
                               configurationBroken: Bool = false, namesWhomToAsk: Bool = false) -> String {
        let buttons = buttonRow([(tr("Back"), canGoBack ? backURL : nil), (tr("Home"), homeURL)])
        // TRANSLATORS: the heading of the page shown instead of a site this computer does not allow.
        let heading = configurationBroken ? tr("This browser is not set up correctly")
            : tr("This site isn't on the list of sites this browser opens")
        let lead = configurationBroken
            ? tr("Its configuration has problems, so it blocks every page until they are fixed. Ask the person who set up this computer.")
            : namesWhomToAsk ? tr("This browser only opens the sites it was set up for. If you need this one, ask the person who set up this computer to add it.")
            : tr("This browser only opens the sites it was set up for.")
        return document(title: tr("Blocked"), body: """
            <h1>\(HTML.escape(heading))</h1>
            <p class="url">\(HTML.escape(url))</p>
            <p class="lead">\(HTML.escape(lead))</p>
            \(buttons)
            <p class="admin">\(HTML.escape(tr("For the administrator:"))) <span class="reason">\(HTML.escape(sentence(reason)))</span></p>
            """)
    }

    /// A page's row of buttons: each a label and the URL it opens, left out when there is none or
    /// it is not safe to link to (HTML.safeHref); the first one shown is the primary button.
    static func buttonRow(_ links: [(label: String, url: String?)]) -> String {
        let anchors = links.compactMap { link in link.url.flatMap(HTML.safeHref).map { (label: link.label, href: $0) } }
        let html = anchors.enumerated().map { index, anchor in
            "<a class=\"\(index == 0 ? "button primary" : "button")\" href=\"\(anchor.href)\">\(HTML.escape(anchor.label))</a>"
        }
        return "<p class=\"buttons\">\(html.joined(separator: " "))</p>"
    }

    /// A reason as a sentence on the page: capital first letter ("Blocked by filter …").
    static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    /// A page in the language of Porthole's messages (`lang`, and `dir` for right-to-left scripts).
    static func document(title: String, body: String) -> String {
        let language = Localization.activeLanguage()
        let direction = Localization.isRightToLeft(language) ? " dir=\"rtl\"" : ""
        return """
        <!DOCTYPE html>
        <html lang="\(HTML.escape(language))"\(direction)><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTML.escape(title))</title>
        <style>\(style)</style></head>
        <body><main>
        \(body)
        </main></body></html>
        """
    }

    static let style = """
        :root { color-scheme: light dark; font-family: Cantarell, "Noto Sans", "DejaVu Sans", sans-serif; }
        body { margin: 0; background: Canvas; color: CanvasText; }
        main { max-width: 40em; margin: 10vh auto; padding: 0 1.5em; line-height: 1.5; }
        h1 { font-size: 1.6em; font-weight: 600; margin-bottom: .3em; }
        .lead, .address, .reason { opacity: .75; }
        .admin { font-size: .85em; opacity: .75; margin-top: 2.5em; }
        .ask { margin-top: 1.5em; }
        details summary { cursor: pointer; }
        .url { font-family: "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; font-size: .95em; }
        .problem { font-family: "DejaVu Sans Mono", monospace; font-size: .95em; overflow-wrap: anywhere; margin-bottom: .4em; }
        ul.sites { list-style: none; padding: 0; }
        ul.sites li { padding: .6em 0; border-bottom: 1px solid color-mix(in srgb, CanvasText 15%, transparent); }
        a.site { font-size: 1.15em; font-weight: 600; margin-right: .6em; color: #1c71d8; text-decoration: none; }
        a.site:hover { text-decoration: underline; }
        .button { display: inline-block; padding: .45em 1.2em; border-radius: .4em; text-decoration: none;
                  border: 1px solid color-mix(in srgb, CanvasText 25%, transparent); color: inherit; margin-right: .5em; }
        .button.primary { background: #3584e4; border-color: #3584e4; color: white; }
        """
}
