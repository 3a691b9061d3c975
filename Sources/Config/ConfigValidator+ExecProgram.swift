import FoundationEssentials
import Glibc
import YAML

extension ConfigValidator {
    /// Checks that an exec widget's program can be run, resolving it as `execvp` does.
    ///
    /// A path with a `/` names one file: missing, a directory or not executable is an error, as it stays wrong
    /// whoever runs it (a relative one is resolved against the current directory, so it is only a warning). A bare
    /// name is searched on `PATH`; not finding it is a warning rather than an error, because the daemon's `PATH` (a
    /// systemd user unit's is short) can differ from the shell's that runs `widgetd check`, and the daemon checks
    /// again with its own when it loads the file. docs/kinds.md, "exec".
    public mutating func checkProgram(_ program: String, at mark: YAMLMark) {
        if program.isEmpty {
            report("the command's program is empty", at: mark)
            return
        }
        if program.contains("/") {
            guard let problem = Self.problem(runningFile: program) else { return }
            let message = "command '\(ConfigLimits.quoted(program))' \(problem)"
            if program.hasPrefix("/") {
                report(message, at: mark)
            } else {
                warn(message + " (relative to the current directory)", at: mark)
            }
            return
        }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/bin:/usr/bin"
        let directories = searchPath.split(separator: ":", omittingEmptySubsequences: false).map {
            $0.isEmpty ? "." : String($0)
        }
        var found: (directory: String, problem: String)?
        for directory in directories {
            let candidate = directory + "/" + program
            guard let problem = Self.problem(runningFile: candidate) else { return }
            // Like execvp, an existing file that cannot run is worth naming over "not found".
            if found == nil, problem != Self.missing { found = (directory, problem) }
        }
        if let found {
            warn("command '\(ConfigLimits.quoted(program))' in \(found.directory) \(found.problem)", at: mark)
        } else {
            warn(
                "command '\(ConfigLimits.quoted(program))' is not found on PATH (\(ConfigLimits.quoted(searchPath))); "
                    + "write its absolute path if the daemon's PATH differs", at: mark)
        }
    }

    private static let missing = "does not exist"

    /// Why `path` cannot be executed, or nil when it can (a regular file this user may execute).
    private static func problem(runningFile path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return missing }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return status.st_mode & S_IFMT == S_IFDIR ? "is a directory" : "is not a regular file"
        }
        guard access(path, X_OK) == 0 else { return "is not executable" }
        return nil
    }
}
