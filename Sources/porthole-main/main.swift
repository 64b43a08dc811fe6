// porthole, as `swift build` and the tests run it: the command's code (PortholeApp) linked in.
// The installed binary is launcher/porthole.c instead, which calls the same code in the shared
// library every web process loads as its extension.
import PortholeApp

runPorthole(CommandLine.arguments)
