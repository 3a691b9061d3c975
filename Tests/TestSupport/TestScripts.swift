import Foundation
import Glibc

/// A test's scripts, written executable into a directory of their own, and the config that runs them: its `$DIR`
/// names that directory.
public final class TestScripts {
    public let directory: TemporaryDirectory

    public init(_ scripts: [String: String]) throws {
        directory = try TemporaryDirectory()
        for (name, body) in scripts {
            chmod(try directory.write(name, body), 0o755)
        }
    }

    deinit {
        directory.remove()
    }

    public func config(_ text: String) -> String {
        text.replacingOccurrences(of: "$DIR", with: directory.url.path)
    }

    public func path(_ name: String) -> String { directory.url.path + "/" + name }

    /// What a script wrote into `name` in the directory; empty when it wrote nothing.
    public func file(_ name: String) -> String {
        (try? String(contentsOfFile: path(name), encoding: .utf8)) ?? ""
    }

    /// The process id a script wrote into `name` (`echo $$ > …`), once it has.
    public func pid(_ name: String) -> pid_t? {
        pid_t(file(name).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The start of a shell script that counts its runs in the file `name` beside it, as scripts keep state between
    /// runs: this run's number is in `$n`, and the file holds it.
    public static func countingRuns(in name: String) -> String {
        """
        #!/bin/sh
        count_file="$(dirname "$0")/\(name)"
        n=$(( $(cat "$count_file" 2>/dev/null || echo 0) + 1 ))
        echo $n > "$count_file"

        """
    }
}
