// porthole: the browser, and its admin subcommand `porthole policy check`.
import Foundation
import GLibBridge
import PortholeCore

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--dump-config-man-page" {
    // Hidden: `make man` writes porthole.conf(5) from the schema the loader uses.
    print(ConfigManPage.render(), terminator: "")
    exit(0)
}
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

if arguments.count >= 2, arguments[1] == "status" {
    // A monitoring tool: asks the running browser over D-Bus, without a display.
    exit(StatusCommand.run(Array(arguments.dropFirst(2))))
}

let status = MainActor.assumeIsolated {
    PortholeApplication().run(arguments)
}
exit(status)
