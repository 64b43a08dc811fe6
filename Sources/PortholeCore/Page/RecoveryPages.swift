// Porthole's pages for a page that is coming back by itself, and for a certificate it refuses.

extension PortholePage {
    /// What a countdown is counting down to.
    public enum Countdown: Sendable, Equatable {
        /// Trying a failed load again.
        case retry
        /// Reloading a page whose web process crashed.
        case reload
    }

    /// The id of the element whose text the browser updates each second (no page script runs).
    public static let countdownElementID = "porthole-countdown"

    /// "Trying again in 4 seconds." — the countdown line, updated from Swift each second.
    public static func countdownText(_ countdown: Countdown, secondsLeft: Int) -> String {
        if secondsLeft <= 0 { return countdown == .retry ? tr("Trying again now…") : tr("Reloading now…") }
        let text = countdown == .retry
            ? trn("Trying again in {count} second.", "Trying again in {count} seconds.", secondsLeft)
            : trn("Reloading in {count} second.", "Reloading in {count} seconds.", secondsLeft)
        return text.replacing("{count}", with: String(secondsLeft))
    }

    /// A script that sets the countdown line to `text`; run by the browser in its own script world,
    /// so it works whatever the page's JavaScript setting.
    public static func countdownScript(_ text: String) -> String {
        "(function(){var e=document.getElementById('\(countdownElementID)');if(e)e.textContent=\(JavaScript.stringLiteral(text));})();"
    }

    /// Shown in kiosk mode when a load fails for want of network or server: plain words, a
    /// countdown to the next attempt, which the browser makes by itself, and the technical
    /// reason folded away.
    public static func retrying(url: String, message: String, secondsLeft: Int, homeURL: String?) -> String {
        let buttons = buttonRow([(tr("Try again now"), url), (tr("Home"), homeURL)])
        let heading = tr("This page could not be loaded")
        let lead = tr("The site could not be reached, or it did not send the page. Try again in a moment.")
        return document(title: tr("Error"), body: """
            <h1>\(HTML.escape(heading))</h1>
            <p class="lead">\(HTML.escape(lead))</p>
            <p class="url">\(HTML.escape(url))</p>
            <p class="lead" id="\(countdownElementID)">\(HTML.escape(countdownText(.retry, secondsLeft: secondsLeft)))</p>
            \(buttons)
            \(technicalDetails(message))
            """)
    }

    /// Shown while a page whose web process crashed (or ran out of memory) waits to reload after
    /// repeated crashes; the first crash reloads at once without it.
    public static func crashed(url: String, secondsLeft: Int, homeURL: String?) -> String {
        let buttons = buttonRow([(tr("Reload now"), url), (tr("Home"), homeURL)])
        let heading = tr("This page stopped working")
        let reason = tr("It stopped several times in a row, so the browser waits a little before showing it again.")
        return document(title: tr("Error"), body: """
            <h1>\(HTML.escape(heading))</h1>
            <p class="url">\(HTML.escape(url))</p>
            <p class="reason">\(HTML.escape(reason))</p>
            <p class="lead" id="\(countdownElementID)">\(HTML.escape(countdownText(.reload, secondsLeft: secondsLeft)))</p>
            \(buttons)
            """)
    }

    /// Shown when a page's load crashed the web process twice in a row: the browser does not
    /// reload it by itself again (a page must not keep the browser in a crash loop).
    /// `hung`: Porthole ended it twice in a row because it stopped responding.
    public static func crashLoop(url: String, homeURL: String?, hung: Bool = false) -> String {
        let buttons = buttonRow([(tr("Home"), homeURL)])
        let reason = hung ? tr("It stopped responding twice in a row, so it is not loaded again by itself.")
            : tr("It stopped the browser twice in a row while loading, so it is not loaded again by itself.")
        return document(title: tr("Error"), body: """
            <h1>\(HTML.escape(tr("This page stopped working")))</h1>
            <p class="url">\(HTML.escape(url))</p>
            <p class="reason">\(HTML.escape(reason))</p>
            \(buttons)
            """)
    }

    /// Shown when a site's certificate cannot be trusted. There is deliberately no way to continue:
    /// only the admin can accept a certificate, with `[Browser] tls-exceptions=`.
    public static func certificateError(url: String, problems: [String], homeURL: String?) -> String {
        let buttons = buttonRow([(tr("Back"), backURL), (tr("Home"), homeURL)])
        let items = problems.map { "<li>\(HTML.escape($0))</li>" }.joined(separator: "\n")
        let heading = tr("This site's identity cannot be verified")
        let lead = tr("Someone could be pretending to be this site, so it is not shown. If it should work, ask the person who set up this computer.")
        return document(title: tr("Not secure"), body: """
            <h1>\(HTML.escape(heading))</h1>
            <p class="url">\(HTML.escape(url))</p>
            <ul class="reason">
            \(items)
            </ul>
            <p class="lead">\(HTML.escape(lead))</p>
            \(buttons)
            """)
    }
}

/// Text that goes into scripts Porthole runs.
public enum JavaScript {
    /// `text` as a double-quoted JavaScript string literal, inert inside a script or an HTML
    /// `<script>` element (`<`, line separators and control characters, C1 included, are escaped);
    /// valid JSON too, which `porthole status --json` relies on.
    public static func stringLiteral(_ text: String) -> String {
        "\"" + ScalarEscaping.escape(text, replacements) { scalar in
            guard ScalarEscaping.isControl(scalar) else { return nil }
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } + "\""
    }

    private static let replacements: [Unicode.Scalar: String] = [
        "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "<": "\\u003c", "\u{2028}": "\\u2028", "\u{2029}": "\\u2029",
    ]
}
