// `porthole status`: reads the running browser's `status` action over D-Bus and prints it.
import CGLib
import FoundationEssentials
import GLibBridge
import PortholeCore

enum StatusCommand {
    static let usage = "usage: porthole status [--json] [--max-error-minutes N]"
    static let defaultMaximumErrorMinutes = 5

    /// Exit status as monitoring plugins use it: 0 OK, 1 WARNING (on an error page for more than
    /// N minutes, default 5), 2 CRITICAL (failing closed), 3 UNKNOWN (no running browser, an
    /// unreadable answer, or unusable arguments).
    static func run(_ arguments: [String]) -> Int32 {
        var minutes = defaultMaximumErrorMinutes
        var json = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--json" {
                json = true
            } else if argument == "--max-error-minutes", let value = rest.popFirst().flatMap({ Int($0) }), value >= 0 {
                minutes = value
            } else if argument.hasPrefix("--max-error-minutes="), let value = Int(argument.dropFirst("--max-error-minutes=".count)), value >= 0 {
                minutes = value
            } else {
                Console.error("porthole: " + tr("status: unusable argument {argument}").replacing("{argument}", with: argument))
                Console.error(usage)
                return StatusHealth.unknown.rawValue
            }
        }
        switch RemoteActionState.read(busName: PortholeApplication.applicationID, objectPath: "/dev/porthole/Porthole", action: "status") {
        case .failure(let error):
            Console.error("porthole: " + tr("no running Porthole answered on the session bus: {reason}")
                .replacing("{reason}", with: error.message))
            return StatusHealth.unknown.rawValue
        case .success(let variant):
            defer { g_variant_unref(variant) }
            guard let status = BrowserStatus(variant: variant) else {
                Console.error("porthole: " + tr("the running Porthole's status has an unexpected form"))
                return StatusHealth.unknown.rawValue
            }
            let now = Int(time(nil))
            let report = StatusReport.render(status, now: now, maximumErrorSeconds: minutes * 60)
            if json {
                print(StatusReport.json(status, now: now, maximumErrorSeconds: minutes * 60))
            } else {
                report.lines.forEach { print($0) }
            }
            return report.status
        }
    }
}
