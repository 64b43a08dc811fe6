// `porthole policy check`: the administrator's tool to see what the policy says about URLs.

/// `porthole policy check [--config FILE] [--allow FILTER]... [--block FILTER]... [URL...]`
///
/// Prints one line per URL: `allowed` or `blocked`, a tab, the URL, a tab, the deciding filter
/// (`-` when none matched). With any `--allow` or `--block` the lists are exactly those given
/// (no implied `*`, no site list); otherwise the configured policy applies, or with `--config
/// FILE` the policy Porthole would run with that file (a candidate checked before it is
/// installed, loaded and validated as `--check-config FILE` does: its problems on standard error,
/// and then, failing closed, every URL blocked). Without URL arguments, URLs are read from
/// standard input, one a line, blank lines skipped. Invalid filters are reported on standard
/// error and left out. Exit status 0; 1 when the `--config` file has problems; 2 (with the usage
/// on standard error) when the arguments cannot be used.
public enum PolicyCheckCommand {
    // TRANSLATORS: the command syntax, "allowed", "blocked" and "-" stay as they are.
    public static var usage: String { usageLines + "\n" + configOption }
    // TRANSLATORS: `--config FILE` and `--check-config` stay as they are.
    static var configOption: String { tr("  --config FILE  decide as Porthole would with this configuration file, checked as --check-config checks it") }
    static var usageLines: String { tr("usage: porthole policy check [--allow FILTER]... [--block FILTER]... [URL...]\n  Prints \"allowed\" or \"blocked\", the URL and the deciding filter (\"-\" for none), tab-separated.\n  --allow FILTER, --block FILTER  decide with exactly these lists instead of the configuration\n  Without URLs, reads them from standard input, one a line.") }

    /// Runs the command. `arguments` are the words after `porthole policy check`.
    /// `configuredPolicy` loads the configuration Porthole would run with (with `--config FILE`,
    /// that file): the policy it decides by and the configuration's problems.
    public static func run(arguments: [String], configuredPolicy: (_ configFile: String?) -> (policy: SitePolicy, problems: [String]),
                           readLine: () -> String?, out: (String) -> Void, err: (String) -> Void) -> Int32 {
        var configFile: String?
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
            guard name == "--allow" || name == "--block" || name == "--config" else {
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
                err("porthole: " + (name == "--config" ? tr("{option} needs a file") : tr("{option} needs a filter")).filled(["option": name]))
                err(usage)
                return 2
            }
            switch name {
            case "--allow": allow.append(value)
            case "--block": block.append(value)
            default: configFile = value
            }
        }
        if configFile != nil, !(allow.isEmpty && block.isEmpty) {
            err("porthole: " + tr("--config and --allow or --block exclude each other"))
            err(usage)
            return 2
        }

        var configProblems: [String] = []
        let policy: SitePolicy
        if allow.isEmpty && block.isEmpty {
            let configured = configuredPolicy(configFile)
            policy = configured.policy
            configProblems = configured.problems
            configProblems.forEach(err)
        } else {
            policy = SitePolicy(allow: allow, block: block)
        }
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
        return configFile != nil && !configProblems.isEmpty ? 1 : 0
    }
}
