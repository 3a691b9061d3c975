import FoundationEssentials
import Glibc

/// Telling a dead process's leftover spares and temporary files (`.<name>.<pid>`, `.<name>.<pid>.<n>`) from a
/// running one's, for `OutputWriter`'s stock-taking when it opens its directory.
extension OutputWriter {
    /// Whether process `pid` exists and has not exited: a killed process stays a zombie until its parent reaps it,
    /// and `kill(pid, 0)` still finds it then.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        // "pid (name) S …": the state follows the last parenthesis (the name may hold any).
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(after: close)...].first(where: { $0 != " " }) != "Z"
    }

    /// The process that named a hidden spare or temporary file `.<name>.<pid>` or `.<name>.<pid>.<n>`; nil for
    /// any other name.
    static func writingProcess(of name: String) -> pid_t? {
        guard name.hasPrefix("."), name != ".", name != ".." else { return nil }
        let parts = name.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        func number(_ part: Substring) -> pid_t? {
            part.allSatisfy({ $0.isASCII && $0.isNumber }) ? pid_t(part) : nil
        }
        // `.<name>.<pid>.<n>`: a numbered temporary file, when the name itself has a suffix (`.clock.plain.7.1`).
        if parts.count >= 4, let pid = number(parts[parts.count - 2]), number(parts[parts.count - 1]) != nil {
            return pid
        }
        return number(parts[parts.count - 1])
    }
}
