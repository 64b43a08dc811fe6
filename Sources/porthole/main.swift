// porthole: the GtkApplication, its command line, and the wiring of configuration to windows.
import CWebKitGtk
import Foundation
import GLibBridge
import PortholeCore
import PortholeUI

MainActor.assumeIsolated {
    let app = PortholeApplication()
    exit(app.run(CommandLine.arguments))
}
