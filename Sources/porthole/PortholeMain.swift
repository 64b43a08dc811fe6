// porthole: the browser, and its admin subcommand `porthole policy check`. The code of the
// `porthole` command lives in this library target so that one file can hold it and the web process
// extension: the installed binary is a small C launcher (launcher/porthole.c) that calls
// `porthole_launch` in libPortholeWebExtension.so, and every web process loads that same library,
// so the UI process and the web processes share one copy of the Swift runtime's pages.
import Glibc
import GLibBridge
import PortholeCore
import PortholeUI

/// The C launcher's entry: the arguments as `main` received them.
@_cdecl("porthole_launch")
public func portholeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runPorthole((0..<Int(argc)).map { argv[$0].map { String(cString: $0) } ?? "" })
}

/// Runs the command `arguments` names (`arguments[0]` is the program) and exits.
public func runPorthole(_ arguments: [String]) -> Never {
    Log.installWriter()
    Localization.setUp()
    if arguments.count == 2, arguments[1] == "--dump-config-man-page" {
        // Hidden: `make man` writes porthole.conf(5) from the schema the loader uses.
        print(ConfigManPage.render(), terminator: "")
        exit(0)
    }
    if arguments.count >= 2, arguments[1] == "policy" {
        // An admin tool: answers without a display or a running browser. A closed output pipe is
        // then a failed write (EPIPE), not a signal that kills the process.
        signal(SIGPIPE, SIG_IGN)
        let output = LineOutput()
        guard arguments.count >= 3, arguments[2] == "check" else {
            Console.error(tr("usage: porthole policy check [--allow FILTER]... [--block FILTER]... [URL...]"))
            exit(2)
        }
        let status = PolicyCheckCommand.run(
            arguments: Array(arguments.dropFirst(3)),
            configuredPolicy: { file in
                // A candidate file is loaded exactly as `porthole --check-config FILE` loads it.
                let standard = ConfigSources.standard(commandLine: nil)
                let sources = file.map { ConfigCheckCommand.sources(checking: $0, in: standard) } ?? standard
                let result = ConfigLoader.load(sources: sources, validateFilter: URLFilter.validator)
                return (SitePolicy(configuration: result.effectiveConfiguration), result.problems.map { "porthole: \($0)" })
            },
            readLine: { Swift.readLine(strippingNewline: true) },
            out: { output.write($0) },
            err: { Console.error($0) })
        output.flush()
        exit(status)
    }

    if arguments.count >= 2, arguments[1] == "status" {
        // A monitoring tool: asks the running browser over D-Bus, without a display.
        exit(StatusCommand.run(Array(arguments.dropFirst(2))))
    }

    let status = MainActor.assumeIsolated {
        PortholeApplication().run(arguments)
    }
    PagePainting.finishDriverPreload()
    exit(status)
}

/// Standard output in 64 KiB writes. A reader that stops early (`| head`) is done with us: the
/// failed write ends the process quietly, as a finished run would.
final class LineOutput {
    private var buffer: [UInt8] = []

    func write(_ line: String) {
        buffer += line.utf8
        buffer.append(0x0A)
        if buffer.count >= 64 * 1024 { flush() }
    }

    func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { exit(0) }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
