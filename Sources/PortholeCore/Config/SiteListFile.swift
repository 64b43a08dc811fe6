// The approved sites of one configuration file, for the callers written before ConfigLoader.
import CGLib

public enum SiteListFile {
    /// The sites of the file at `path`, read and checked by ConfigLoader as `--config FILE` alone.
    /// Throws the first problem. Unlike `ConfigLoader.load(sources:overrides:validateFilter:)` it
    /// reads no system file, applies no locks and does not check `[Policy]` filters, so it is only
    /// for the bundled default; remove it once the app and its tests call ConfigLoader.
    public static func load(path: String) throws(ConfigProblem) -> SiteList {
        let result = ConfigLoader.load(sources: ConfigSources(commandLine: path), validateFilter: { _ in nil })
        if let problem = result.problems.first { throw problem }
        return result.resolved.sites
    }

    /// A GError's message, freeing the error. Other Core code (the policy engine's URL parsing)
    /// calls it by this name.
    static func takeMessage(_ error: UnsafeMutablePointer<GError>?) -> String {
        KeyFileDocument.takeMessage(error)
    }
}
