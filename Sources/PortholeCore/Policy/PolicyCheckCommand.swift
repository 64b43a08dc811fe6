// `porthole policy check`: the administrator's tool to see what the policy says about URLs.

/// `porthole policy check [--allow FILTER]... [--block FILTER]... [URL...]`
///
/// Prints one line per URL: `allowed` or `blocked`, a tab, the URL, a tab, the deciding filter
/// (`-` when none matched). With any `--allow` or `--block` the lists are exactly those given
/// (no implied `*`, no site list); otherwise the configured policy applies. Without URL
/// arguments, URLs are read from standard input, one a line, blank lines skipped. Invalid
/// filters are reported on standard error and left out. Exit status 0, or 2 (with the usage on
/// standard error) when the arguments cannot be used.
public enum PolicyCheckCommand {
    // TRANSLATORS: the command syntax, "allowed", "blocked" and "-" stay as they are.
    public static var usage: String { tr("usage: porthole policy check [--allow FILTER]... [--block FILTER]... [URL...]\n  Prints \"allowed\" or \"blocked\", the URL and the deciding filter (\"-\" for none), tab-separated.\n  --allow FILTER, --block FILTER  decide with exactly these lists instead of the configuration\n  Without URLs, reads them from standard input, one a line.") }

    /// Runs the command. `arguments` are the words after `porthole policy check`.
    public static func run(arguments: [String], configuredPolicy: () -> SitePolicy, readLine: () -> String?,
                           out: (String) -> Void, err: (String) -> Void) -> Int32 {
        var allow: [String] = []
        var block: [String] = []
        var urls: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                urls.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                out(usage)
                return 0
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard name == "--allow" || name == "--block" else {
                err("porthole: " + tr("unknown option \"{option}\"").filled(["option": argument]))
                err(usage)
                return 2
            }
            let value: String
            if parts.count == 2 {
                value = String(parts[1])
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                err("porthole: " + tr("{option} needs a filter").filled(["option": name]))
                err(usage)
                return 2
            }
            if name == "--allow" { allow.append(value) } else { block.append(value) }
        }

        let policy = allow.isEmpty && block.isEmpty ? configuredPolicy() : SitePolicy(allow: allow, block: block)
        for problem in policy.problems { err("porthole: \(problem)") }

        func check(_ url: String) {
            let decision = policy.decide(url: url)
            out("\(decision.isAllowed ? "allowed" : "blocked")\t\(url)\t\(decision.filter ?? "-")")
        }
        if urls.isEmpty {
            while let line = readLine() {
                let url = line.trimmingWhitespace
                if !url.isEmpty { check(url) }
            }
        } else {
            urls.forEach(check)
        }
        return 0
    }
}
