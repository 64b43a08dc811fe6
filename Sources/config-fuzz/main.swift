// config-fuzz (make fuzz): mutates the bundled configuration files and a Chrome policy folder and
// loads each mutation as Porthole does (ConfigLoader, the code behind --check-config, start and
// reload). Fails on a crash, a case slower than 5 s, a problem without a line, or a mutation
// that was accepted (no problem, no default-deny warning) while its policy allows a probe URL
// the original blocked although no allow or site line was touched.
// Usage: config-fuzz [--cases N] [--seed S] [--resources DIR]
import Foundation
import PortholeCore
import SeededRandom

var cases = 20_000
var seed: UInt64 = 21
var resources = "Resources"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--cases": cases = Int(arguments.popFirst() ?? "") ?? cases
    case "--seed": seed = UInt64(arguments.popFirst() ?? "") ?? seed
    case "--resources": resources = arguments.popFirst() ?? resources
    default:
        FileHandle.standardError.write("usage: config-fuzz [--cases N] [--seed S] [--resources DIR]\n".data(using: .utf8)!)
        exit(2)
    }
}

/// The folder a case's files are written to; left in place, so a crash or hang leaves its input.
let work = FileManager.default.currentDirectoryPath + "/.build/fuzz"
let chromeFolder = work + "/chrome"
try? FileManager.default.removeItem(atPath: work)
try FileManager.default.createDirectory(atPath: chromeFolder, withIntermediateDirectories: true)

/// A seed file and the lines (from 1) a mutation may touch freely: allow and site lines, where a
/// wider policy is what the text says.
struct Seed {
    var name: String
    var text: [UInt8]
    var freeLines: Set<Int>
}

func lines(_ text: [UInt8]) -> [String] { String(decoding: text, as: UTF8.self).components(separatedBy: "\n") }

/// Keyfile lines in [Sites] (header included) and `allow=` lines.
func keyfileSeed(_ name: String, _ text: String) -> Seed {
    var free = Set<Int>()
    var group = ""
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("[") { group = trimmed }
        if group == "[Sites]" || trimmed.hasPrefix("allow") { free.insert(index + 1) }
    }
    return Seed(name: name, text: Array(text.utf8), freeLines: free)
}

/// Chrome files: the lines of URLAllowlist (to its closing bracket) and of the start pages.
func chromeSeed(_ name: String, _ text: String) -> Seed {
    var free = Set<Int>()
    var inAllow = false
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
        if line.contains("URLAllowlist") { inAllow = true }
        if inAllow || line.contains("HomepageLocation") || line.contains("RestoreOnStartupURLs") { free.insert(index + 1) }
        if inAllow, line.contains("]") { inAllow = false }
    }
    return Seed(name: name, text: Array(text.utf8), freeLines: free)
}

let chromeFiles = [
    chromeSeed("10-block.json", """
        {
          // The kiosk's block list
          "URLBlocklist": [
            "*",
            "ads.example.org",
            "javascript://*"
          ],
        }
        """),
    chromeSeed("20-allow.json", """
        {
          "URLAllowlist": [
            "wikipedia.org",
            "https://catalogue.example.org/search"
          ],
          "HomepageLocation": "https://wikipedia.org/",
          "PrintingEnabled": false
        }
        """),
    chromeSeed("30-other.json", #"{"ProxyMode": "system", "BookmarkBarEnabled": false, "IncognitoModeAvailability": 2}"#),
]
let example = (try? String(contentsOfFile: resources + "/porthole.conf.example", encoding: .utf8)) ?? ""
let bundled = (try? String(contentsOfFile: resources + "/porthole.conf", encoding: .utf8)) ?? ""
guard !example.isEmpty, !bundled.isEmpty else {
    FileHandle.standardError.write("config-fuzz: cannot read \(resources)/porthole.conf and porthole.conf.example\n".data(using: .utf8)!)
    exit(2)
}
let keyfiles = [
    keyfileSeed("porthole.conf", bundled),
    keyfileSeed("porthole.conf.example", example),
    keyfileSeed("with-chrome.conf", example.replacingOccurrences(of: "chrome-policies=\n", with: "chrome-policies=\(chromeFolder)\n")),
]
/// The configuration for Chrome cases: the folder is the only block list and gives the sites.
let chromeOnly = keyfileSeed("chrome-only.conf", "[Policy]\nchrome-policies=\(chromeFolder)\nblock=none\n")

let probes = [
    "https://apple.com/", "https://www.hackingwithswift.com/", "https://wikipedia.org/wiki/Swift", "https://en.wikipedia.org/",
    "https://upload.wikimedia.org/a.png", "https://catalogue.example.org/search?q=x", "https://catalogue.example.org/admin",
    "https://ads.example.org/", "https://evil.example/", "http://evil.example/", "https://wikipedia.org.evil.example/",
    "https://example.com/", "file:///etc/passwd", "javascript:alert(1)", "data:text/html,x", "chrome://settings/",
    "https://10.0.0.1/", "ftp://evil.example/", "https://apple.com.evil.example/", "https://evil.example/wikipedia.org",
]

/// Bytes a careless admin or an attacker would insert.
let insertions: [[UInt8]] = [
    [0], [0x0A], [0x0D], [0x1B], [0x0B], [0xC2, 0x85], [0xE2, 0x80, 0xA8], [0xFF], [0xEF, 0xBB, 0xBF],
    Array("[".utf8), Array("]".utf8), Array("=".utf8), Array(";".utf8), Array("\"".utf8), Array("'".utf8),
    Array("{".utf8), Array("}".utf8), Array(",".utf8), Array("//".utf8), Array("/*".utf8), Array("*".utf8),
    Array("\\".utf8), Array("\\u0000".utf8), Array("1e999".utf8), Array("[de]".utf8), Array("#".utf8),
    Array(" ".utf8), Array("none".utf8), Array("*.".utf8), Array("chrome://".utf8), Array(String(repeating: "[", count: 300).utf8),
]

/// One mutation of `text`, and the lines (of the original) it touched.
func mutate(_ text: [UInt8], _ random: inout Random) -> (bytes: [UInt8], touched: Set<Int>) {
    var bytes = text
    func lineOf(_ offset: Int) -> Int { 1 + text[..<min(offset, text.count)].filter { $0 == 0x0A }.count }
    var touched = Set<Int>()
    let count = 1 + random.below(3)
    for _ in 0..<count {
        let at = random.below(bytes.count + 1)
        let original = min(at, text.count)
        touched.insert(lineOf(original))
        switch random.below(8) {
        case 0 where !bytes.isEmpty:  // flip one bit
            let index = min(at, bytes.count - 1)
            bytes[index] ^= UInt8(1 << random.below(8))
            touched.insert(lineOf(min(index, text.count)))
        case 1 where !bytes.isEmpty:  // delete a run, perhaps across lines
            let end = min(bytes.count, at + 1 + random.below(12))
            touched.formUnion(lineOf(original)...lineOf(min(end, text.count)))
            bytes.removeSubrange(min(at, bytes.count)..<end)
        case 2:  // insert something
            bytes.insert(contentsOf: insertions[random.below(insertions.count)], at: min(at, bytes.count))
            touched.insert(lineOf(original) + 1)
        case 3:  // cut short, as a write interrupted
            bytes.removeSubrange(min(at, bytes.count)...)
            touched.formUnion(lineOf(original)...(lineOf(text.count) + 1))
        case 4:  // duplicate a line
            let all = lines(bytes)
            let line = random.below(all.count)
            var copy = all
            copy.insert(all[line], at: line)
            bytes = Array(copy.joined(separator: "\n").utf8)
            touched.insert(line + 1)
        case 5:  // delete a line
            var all = lines(bytes)
            let line = random.below(all.count)
            all.remove(at: line)
            bytes = Array(all.joined(separator: "\n").utf8)
            touched.formUnion([line, line + 1, line + 2])
        case 6 where !bytes.isEmpty:  // replace a byte with another printable one
            let index = min(at, bytes.count - 1)
            bytes[index] = UInt8(0x20 + random.below(95))
            touched.insert(lineOf(min(index, text.count)))
        default:  // swap case of a letter
            let index = min(at, max(0, bytes.count - 1))
            if index < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index] | 0x20) { bytes[index] ^= 0x20 }
            touched.insert(lineOf(min(index, text.count)))
        }
    }
    return (bytes, touched)
}

func write(_ bytes: [UInt8], to path: String) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
}

func writeChrome(_ replaced: (name: String, bytes: [UInt8])? = nil) {
    for file in chromeFiles {
        write(file.name == replaced?.name ? replaced!.bytes : file.text, to: chromeFolder + "/" + file.name)
    }
}

let settled = ConfigFileReader(unchangedFor: { _ in .infinity })

/// Loads `file` as Porthole does; nil policy when the result is not accepted.
func load(_ file: String) -> (result: ConfigLoadResult, accepted: SitePolicy?) {
    let result = ConfigLoader.load(sources: ConfigSources(commandLine: file), validateFilter: URLFilter.validator, reader: settled)
    let warned = result.notices.contains { $0.message.contains("catch-all") }
    guard let configuration = result.configuration, !warned else { return (result, nil) }
    return (result, SitePolicy(configuration: configuration))
}

func allowed(_ policy: SitePolicy) -> Set<String> { Set(probes.filter { policy.isAllowed($0) }) }

// The originals' verdicts.
writeChrome()
var originals: [String: Set<String>] = [:]
for seed in keyfiles + [chromeOnly] {
    let path = work + "/" + seed.name
    write(seed.text, to: path)
    let (result, policy) = load(path)
    guard let policy else {
        print("config-fuzz: the original \(seed.name) is not accepted: \(result.problems.map(\.description)) \(result.notices.map(\.description))")
        exit(1)
    }
    originals[seed.name] = allowed(policy)
}

var random = Random(state: seed)
var failures: [String] = []
var stats = (accepted: 0, problems: 0, skipped: 0, slowest: 0.0, lines: 0)
let started = Date()
// A case that hangs is killed by SIGALRM; its input is left in .build/fuzz.
for index in 0..<cases {
    let isChrome = index % 2 == 1
    let seed = isChrome ? chromeFiles[random.below(chromeFiles.count)] : keyfiles[random.below(keyfiles.count)]
    let (bytes, touched) = mutate(seed.text, &random)
    let config: String
    if isChrome {
        writeChrome((seed.name, bytes))
        config = work + "/" + chromeOnly.name
        write(chromeOnly.text, to: config)
    } else {
        writeChrome()
        config = work + "/" + seed.name
        write(bytes, to: config)
    }
    alarm(10)
    let start = Date()
    let (result, policy) = load(config)
    let elapsed = Date().timeIntervalSince(start)
    alarm(0)
    stats.slowest = max(stats.slowest, elapsed)
    let label = "case \(index) (\(seed.name))"
    if elapsed > 5 { failures.append("\(label): took \(elapsed) s") }
    for problem in result.problems where problem.line == nil {
        failures.append("\(label): a problem without a line: \(problem)")
    }
    stats.lines += result.problems.count
    if result.notices.contains(where: { $0.message.contains("skipped, as Chrome") }) { stats.skipped += 1 }
    guard let policy else { stats.problems += 1; continue }
    stats.accepted += 1
    let original = originals[isChrome ? chromeOnly.name : seed.name]!
    let widened = allowed(policy).subtracting(original)
    if !widened.isEmpty, touched.isDisjoint(with: seed.freeLines) {
        failures.append("\(label): accepted and allows \(widened.sorted()) though lines \(touched.sorted()) hold no allow or site entry")
        try? FileManager.default.copyItem(atPath: isChrome ? chromeFolder : config, toPath: work + "/failure-\(index)")
    }
    if failures.count > 20 { break }
}
let seconds = Date().timeIntervalSince(started)
print("config-fuzz: \(cases) cases in \(String(format: "%.1f", seconds)) s (seed \(seed)): \(stats.accepted) accepted, "
      + "\(stats.problems) refused with \(stats.lines) problems (each with a line), \(stats.skipped) with a Chrome file skipped; "
      + "slowest case \(String(format: "%.3f", stats.slowest)) s; \(failures.count) failures")
failures.prefix(20).forEach { print("  " + $0) }
exit(failures.isEmpty ? 0 : 1)
