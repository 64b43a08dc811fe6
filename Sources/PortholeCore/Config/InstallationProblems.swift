// What the running browser needs beside its configuration files: a missing part is a problem
// like a broken file, so the browser fails closed.

extension ConfigLoadResult {
    /// The result with `extra` problems added (found by the running binary, not in a file).
    public func adding(_ extra: [ConfigProblem]) -> ConfigLoadResult {
        var result = self
        result.problems += extra
        return result
    }
}

public enum InstallationProblems {
    /// Porthole's web process extension (the second layer of the site policy) was looked for at
    /// `candidates` and is at `found`, or nowhere: then pages would load with the first layer only.
    public static func webExtension(found: String?, candidates: [String]) -> [ConfigProblem] {
        guard found == nil else { return [] }
        return [ConfigProblem(file: candidates.first ?? "web-extensions",
                              message: tr("Porthole's web process extension is missing (the second layer of the site policy): looked in {directories}")
                                  .filled(["directories": candidates.joined(separator: ", ")]))]
    }
}
