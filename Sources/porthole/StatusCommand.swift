// `porthole status`: reads the running browser's `status` action over D-Bus and prints it.
import CGLib
import FoundationEssentials
import GLibBridge
import PortholeCore

enum StatusCommand {
    static let usage = "usage: porthole status [--max-error-minutes N]"

    /// Exit status: 0 healthy, 1 failing closed or on an error page for more than N minutes
    /// (default 5), 2 unusable arguments, 3 no running browser.
    static func run(_ arguments: [String]) -> Int32 {
        var minutes = 5
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--max-error-minutes", let value = rest.popFirst().flatMap({ Int($0) }), value >= 0 {
                minutes = value
            } else if argument.hasPrefix("--max-error-minutes="), let value = Int(argument.dropFirst("--max-error-minutes=".count)), value >= 0 {
                minutes = value
            } else {
                Console.error(usage)
                return 2
            }
        }
        switch RemoteActionState.read(busName: PortholeApplication.applicationID, objectPath: "/dev/porthole/Porthole", action: "status") {
        case .failure(let error):
            Console.error("porthole: " + tr("no running Porthole answered on the session bus: {reason}")
                .replacing("{reason}", with: error.message))
            return 3
        case .success(let variant):
            defer { g_variant_unref(variant) }
            guard let status = BrowserStatus(variant: variant) else {
                Console.error("porthole: " + tr("the running Porthole's status has an unexpected form"))
                return 3
            }
            let report = StatusReport.render(status, now: Int(time(nil)), maximumErrorSeconds: minutes * 60)
            report.lines.forEach { print($0) }
            return report.status
        }
    }
}
