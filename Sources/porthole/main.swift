// porthole: the browser, and its admin subcommand `porthole policy check`.
import Glibc
import GLibBridge
import PortholeCore

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "policy" {
    // An admin tool: answers without a display or a running browser.
    guard arguments.count >= 3, arguments[2] == "check" else {
        Console.error("usage: porthole policy check [--allow FILTER]... [--block FILTER]... [URL...]")
        exit(2)
    }
    let status = PolicyCheckCommand.run(
        arguments: Array(arguments.dropFirst(3)),
        configuredPolicy: {
            let result = ConfigLoader.load(sources: .standard(commandLine: nil), validateFilter: URLFilter.validator)
            result.problems.forEach { Console.error("porthole: \($0)") }
            return SitePolicy(configuration: result.effectiveConfiguration)
        },
        readLine: { Swift.readLine(strippingNewline: true) },
        out: { print($0) },
        err: { Console.error($0) })
    exit(status)
}

let status = MainActor.assumeIsolated {
    PortholeApplication().run(arguments)
}
exit(status)
