// policy-bench: compile time and decision time of SitePolicy at 10 to 100,000 filters, against the
// seed's substring check, and configuration load time at 20,000 and 100,000 sites, filters,
// permissions and Chrome policy entries (valid and unreadable), and 160,000 keyfile groups. Run in release: swift run -c release policy-bench [--load-only] [--markdown FILE]
// (--load-only: only the configuration loads). --profile-load KIND loads 100,000 of KIND once, for
// callgrind or perf (callgrind's --toggle-collect on ConfigLoader.load's symbol counts the load alone).
import Foundation
import PortholeCore
import SeededRandom

enum Workload {
    static let syllables = ["ka", "lo", "mi", "ne", "ra", "to", "su", "vi", "da", "pe", "zo", "ban", "tel",
                            "mar", "nor", "sol", "win", "gar", "fen", "qui", "lux", "dor", "hal", "ost"]
    static let tlds = ["com", "org", "net", "de", "fr", "co.uk", "io", "edu", "nl", "example"]
    static let prefixes = ["www", "mail", "cdn", "news", "shop", "app", "static", "api"]

    static func word(_ random: inout Random) -> String {
        (0..<(2 + random.below(3))).map { _ in syllables[random.below(syllables.count)] }.joined()
    }

    static func host(_ random: inout Random) -> String {
        var host = word(&random) + String(random.below(1000)) + "." + tlds[random.below(tlds.count)]
        if random.chance(30) { host = prefixes[random.below(prefixes.count)] + "." + host }
        return host
    }

    /// Realistic lists: mostly hosts, some exact hosts, schemes, paths, queries, ports and IPs;
    /// half allow, half block, plus Porthole's `*` block.
    static func filters(_ count: Int, seed: UInt64) -> (allow: [String], block: [String], hosts: [String]) {
        var random = Random(state: seed)
        var allow: [String] = [], block: [String] = [], hosts: [String] = []
        for _ in 0..<count {
            let host = Workload.host(&random)
            hosts.append(host)
            let filter: String
            switch random.below(100) {
            case 0..<68: filter = host
            case 68..<76: filter = "." + host
            case 76..<83: filter = "https://" + host
            case 83..<89: filter = host + "/section\(random.below(5))"
            case 89..<93: filter = host + "/watch?id=\(random.below(50))"
            case 93..<96: filter = "10.\(random.below(256)).\(random.below(256)).\(random.below(256))"
            default: filter = host + ":8080"
            }
            if random.chance(50) { allow.append(filter) } else { block.append(filter) }
        }
        allow.append("*/robots.txt")
        block.append("*")
        return (allow, block, hosts)
    }

    /// Canonical URLs as WebKit hands them: about half on listed hosts (often deep below them),
    /// half elsewhere, a few IPs.
    static func urls(_ count: Int, hosts: [String], seed: UInt64) -> [String] {
        var random = Random(state: seed)
        let paths = ["/", "/section1/page", "/a/b/c/d.html", "/watch?id=12", "/watch?id=7&t=30", "/robots.txt"]
        return (0..<count).map { _ in
            var host = random.chance(55) ? hosts[random.below(hosts.count)] : Workload.host(&random)
            for _ in 0..<random.below(random.chance(20) ? 7 : 3) { host = prefixes[random.below(prefixes.count)] + "." + host }
            if random.chance(3) { host = "10.\(random.below(256)).\(random.below(256)).\(random.below(256))" }
            let port = random.chance(5) ? ":8080" : ""
            return "https://\(host)\(port)\(paths[random.below(paths.count)])"
        }
    }

    /// The same URLs spelled so that only full canonicalisation reads them (case, default
    /// port, escapes): the cost of a typed or hand-written URL.
    static func uncanonical(_ url: String) -> String {
        guard let slash = url.dropFirst(8).firstIndex(of: "/") else { return url }
        let authority = url[url.index(url.startIndex, offsetBy: 8)..<slash].uppercased()
        let port = authority.contains(":") ? "" : ":443"
        return "HTTPS://\(authority)\(port)\(url[slash...])".replacingOccurrences(of: "/a/", with: "/%61/")
    }
}

/// The seed's check: allowed when the URL's host contains any listed entry.
struct SeedCheck {
    let entries: [String]
    func isAllowed(_ url: String) -> Bool {
        guard let host = URL(string: url)?.host else { return false }
        return entries.contains { host.range(of: $0) != nil }
    }
}

@inline(__always) func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// CPU time of this thread: on a shared machine, what the work cost regardless of other load.
func cpuNow() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

struct Timing {
    var median: UInt64
    var p99: UInt64
    var perSecond: Double
}

/// Per-call times over `passes` rounds, and throughput from an untimed-per-call round.
func measure(_ inputs: [String], passes: Int, _ decide: (String) -> Bool) -> (Timing, allowed: Int) {
    var samples: [UInt64] = []
    samples.reserveCapacity(inputs.count * passes)
    var allowed = 0
    for _ in 0..<passes {
        for input in inputs {
            let start = now()
            let result = decide(input)
            let end = now()
            samples.append(end - start)
            if result { allowed += 1 }
        }
    }
    samples.sort()
    let start = now()
    for input in inputs where decide(input) { allowed += 1 }
    let elapsed = max(now() - start, 1)
    let timing = Timing(median: samples[samples.count / 2], p99: samples[samples.count * 99 / 100],
                        perSecond: Double(inputs.count) / (Double(elapsed) / 1e9))
    return (timing, allowed)
}

func milliseconds(_ nanoseconds: UInt64) -> String { String(format: "%.2f", Double(nanoseconds) / 1e6) }
func grouped(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var out = ""
    for (index, digit) in digits.reversed().enumerated() {
        if index > 0, index % 3 == 0 { out.append(",") }
        out.append(digit)
    }
    return String(out.reversed())
}

// MARK: Main

var markdownPath: String?
var loadOnly = false
/// `--profile-load KIND`: one load of 100,000 sites, filters or permissions and nothing else,
/// to run under callgrind or perf.
var profiledLoad: String?
/// The configuration files loaded, by kind.
let loadKinds = ["sites", "filters", "permissions", "Chrome entries", "unreadable Chrome filters", "groups"]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--markdown", let path = arguments.popFirst() {
        markdownPath = path
    } else if argument == "--load-only" {
        loadOnly = true
    } else if argument == "--profile-load", let kind = arguments.popFirst(), loadKinds.contains(kind) {
        profiledLoad = kind
        loadOnly = true
    } else {
        FileHandle.standardError.write("usage: policy-bench [--load-only] [--markdown FILE] | --profile-load KIND (\(loadKinds.joined(separator: ", ")))\n".data(using: .utf8)!)
        exit(2)
    }
}

var overheadSamples: [UInt64] = []
for _ in 0..<100_000 {
    let start = now()
    overheadSamples.append(now() - start)
}
overheadSamples.sort()
let timerOverhead = overheadSamples[overheadSamples.count / 2]

let urlCount = 10_000
var lines = loadOnly ? [] : [
    "| filters | check | compile (ms) | median (ns) | p99 (ns) | decisions/s | URLs timed |",
    "|---:|---|---:|---:|---:|---:|---:|",
]
var sink = 0
for count in loadOnly ? [] : [10, 1_000, 100_000] {
    let (allow, block, hosts) = Workload.filters(count, seed: UInt64(count))
    let urls = Workload.urls(urlCount, hosts: hosts, seed: 42)
    let typed = urls.map(Workload.uncanonical)

    var compileTimes: [UInt64] = []
    var policy = SitePolicy(allow: allow, block: block)
    for _ in 0..<5 {
        let start = now()
        policy = SitePolicy(allow: allow, block: block)
        compileTimes.append(now() - start)
    }
    compileTimes.sort()
    precondition(policy.problems.isEmpty, "generated filters must all be valid: \(policy.problems.prefix(3))")
    let compile = milliseconds(compileTimes[compileTimes.count / 2])
    let filterCount = allow.count + block.count

    let (canonical, allowedCanonical) = measure(urls, passes: 5) { policy.decide(url: $0).isAllowed }
    let (full, allowedFull) = measure(typed, passes: 2) { policy.decide(url: $0).isAllowed }
    precondition(allowedCanonical / 6 == allowedFull / 3, "both spellings must get the same verdicts")
    sink += allowedCanonical

    let seedStart = now()
    let seed = SeedCheck(entries: allow + block)
    let seedCompile = now() - seedStart
    let seedURLs = Array(urls.prefix(max(100, min(urls.count, 2_000_000 / count))))
    let (seedTiming, seedAllowed) = measure(seedURLs, passes: 1) { seed.isAllowed($0) }
    sink += seedAllowed

    lines.append("| \(grouped(Double(filterCount))) | SitePolicy, canonical URL (as WebKit gives) | \(compile) | "
                 + "\(canonical.median) | \(canonical.p99) | \(grouped(canonical.perSecond)) | \(grouped(Double(urls.count))) |")
    lines.append("| \(grouped(Double(filterCount))) | SitePolicy, canonicalise with GUri + decide | \(compile) | "
                 + "\(full.median) | \(full.p99) | \(grouped(full.perSecond)) | \(grouped(Double(typed.count))) |")
    lines.append("| \(grouped(Double(filterCount))) | seed: host contains an entry (linear) | \(milliseconds(seedCompile)) | "
                 + "\(seedTiming.median) | \(seedTiming.p99) | \(grouped(seedTiming.perSecond)) | \(grouped(Double(seedURLs.count))) |")
}

// MARK: Configuration loading

/// Loads a configuration file of `count` sites, `allow=` filters or permission grants, as the
/// browser does at start and on every reload (stable read, GKeyFile, every value checked).
func loadTime(_ what: String, count: Int, directory: String, runs: Int = 3) -> (wall: UInt64, cpu: UInt64, problems: Int) {
    var random = Random(state: UInt64(count) &+ 7)
    var hosts: [String] = []
    var seen = Set<String>()
    while hosts.count < count {
        let host = Workload.host(&random)
        if seen.insert(host).inserted { hosts.append(host) }
    }
    var text = "[Sites]\n"
    switch what {
    case "sites":
        for (index, host) in hosts.enumerated() { text += "Site \(index)=\(index % 2 == 0 ? host : "https://\(host)/start")\n" }
    case "filters":
        text += "Home=home.example\n[Policy]\nallow=" + hosts.joined(separator: ";") + "\nblock=*\n"
    case "Chrome entries", "unreadable Chrome filters":
        // One Chrome policy file: a comment, the block list with 1 % `*.domain` entries (left out
        // with a notice, as Chromium reads them as nothing), the allow list; or every filter
        // unreadable (each a problem at line:column).
        let folder = directory + "/chrome-\(count)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func quoted(_ list: [String]) -> String { list.map { "\"" + $0 + "\"" }.joined(separator: ",\n") }
        let json: String
        if what == "Chrome entries" {
            let half = hosts.count / 2
            let block = ["*"] + hosts[..<half].enumerated().map { $0.offset % 100 == 0 ? "*." + $0.element : $0.element }
            json = "// generated\n{\"URLBlocklist\": [" + quoted(block) + "],\n\"URLAllowlist\": [" + quoted(Array(hosts[half...])) + ",],}\n"
        } else {
            json = "{\"URLBlocklist\": [\"*\"], \"URLAllowlist\": [" + quoted(hosts.map { "http://exa mple." + $0 + "/" }) + "]}\n"
        }
        try? json.write(toFile: folder + "/policy.json", atomically: true, encoding: .utf8)
        text += "Home=home.example\n[Policy]\nchrome-policies=\(folder)\n"
    case "groups":
        text += "Home=home.example\n" + hosts.indices.map { "[Group \($0)]\nkey=value\n" }.joined()
    default:
        let permissions = ["geolocation", "notifications", "camera", "microphone", "clipboard"]
        text += "Home=home.example\n[Privacy]\npermissions="
            + hosts.enumerated().map { "\($0.element):\(permissions[$0.offset % permissions.count])" }.joined(separator: ";") + "\n"
    }
    let file = directory + "/\(what).conf"
    try? text.write(toFile: file, atomically: true, encoding: .utf8)
    var times: [UInt64] = []
    var cpuTimes: [UInt64] = []
    var problems = 0
    // Read as start-up reads a file deployed earlier: once (a file written within the second
    // before is read twice, 20 ms apart: the reload right after an edit).
    let settled = ConfigFileReader(unchangedFor: { _ in .infinity })
    for _ in 0..<runs {
        let start = now(), cpuStart = cpuNow()
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: URLFilter.validator, reader: settled)
        times.append(now() - start)
        cpuTimes.append(cpuNow() - cpuStart)
        problems = result.problems.count
    }
    times.sort()
    cpuTimes.sort()
    return (times[runs / 2], cpuTimes[runs / 2], problems)
}

let loadDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("policy-bench-\(getpid())").path
try? FileManager.default.createDirectory(atPath: loadDirectory, withIntermediateDirectories: true)
if let profiledLoad {
    let (wall, cpu, problems) = loadTime(profiledLoad, count: 100_000, directory: loadDirectory, runs: 1)
    try? FileManager.default.removeItem(atPath: loadDirectory)
    print("\(profiledLoad): 100,000 loaded once in \(milliseconds(wall)) ms (CPU \(milliseconds(cpu)) ms), \(problems) problems")
    exit(0)
}
lines += ["", "| configuration file | entries | load (ms) | CPU (ms) | problems |", "|---|---:|---:|---:|---:|"]
/// The load time of each kind at 100,000 entries, for the target line.
var largestLoads: [(what: String, wall: UInt64, cpu: UInt64)] = []
// Issue 21: Chrome policy files (valid, and every filter unreadable) and a keyfile of 160,000
// unknown groups (each a problem) load in linear time too.
for what in loadKinds {
    let counts = what == "groups" ? [20_000, 160_000] : [20_000, 100_000]
    for count in counts {
        let (wall, cpu, problems) = loadTime(what, count: count, directory: loadDirectory)
        let expected = what == "unreadable Chrome filters" || what == "groups" ? count : 0
        precondition(problems == expected, "generated \(what): \(problems) problems, expected \(expected)")
        lines.append("| \(what) | \(grouped(Double(count))) | \(milliseconds(wall)) | \(milliseconds(cpu)) | \(grouped(Double(problems))) |")
        if count == counts.last { largestLoads.append((what, wall, cpu)) }
    }
}
try? FileManager.default.removeItem(atPath: loadDirectory)
// Issue 15: loading 100,000 sites or filters (and permissions) takes under 1 s; issue 21: so do
// 100,000 Chrome entries, unreadable ones included, and 160,000 groups.
let groupsLoad = largestLoads.filter { $0.what == "groups" }
largestLoads.removeAll { $0.what == "groups" }
let loadTargetMet = largestLoads.allSatisfy { $0.wall < 1_000_000_000 }
lines += ["", "Target: loading 100,000 sites, filters, permissions or Chrome entries (valid or unreadable) under 1 s — "
          + largestLoads.map { "\($0.what) \(milliseconds($0.wall)) ms (CPU \(milliseconds($0.cpu)) ms)" }.joined(separator: ", ")
          + ": " + (loadTargetMet ? "met" : "**missed**") + "."]
lines += ["", "A keyfile of 160,000 unknown groups (each a problem; 30 s before issue 21): "
          + groupsLoad.map { "\(milliseconds($0.wall)) ms (CPU \(milliseconds($0.cpu)) ms)" }.joined() + "."]

let decisionNotes = loadOnly ? "" : "Filters: deterministic "
    + "hosts (68 %), exact hosts, https-only, paths, queries, IPs, ports; half allow, half block, plus "
    + "`*` block and `*/robots.txt` allow. URLs: 55 % on listed hosts, often several labels below "
    + "them, the rest elsewhere. Times per call include \(timerOverhead) ns of clock overhead. "
    + "Compile is the median of 5 builds; the seed's \"compile\" is copying its list. The seed check "
    + "is timed on fewer URLs at large sizes so the run stays short. "
let notes = """

    Release build, one thread, \(ProcessInfo.processInfo.processorCount) cores. \(decisionNotes)Configuration loads are the \
    median of 3 `ConfigLoader.load` calls on a generated file (read once, as start-up reads a file \
    deployed earlier, parsed, every value checked; a reload right after an edit reads it twice, \
    20 ms apart), the browser's start-up and reload path; the target is under 1 s at 100,000. \
    CPU is the loading thread's own time, which other work on a shared machine does not inflate.
    """
let table = lines.joined(separator: "\n") + "\n" + notes + "\n"
print(table)
if sink < 0 { print(sink) }
if let markdownPath {
    do {
        try table.write(toFile: markdownPath, atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write("policy-bench: cannot write \(markdownPath): \(error)\n".data(using: .utf8)!)
        exit(1)
    }
}
