import Foundation
import Glibc
import TestSupport

/// A test's scripts, written executable into a directory of their own, and the config that runs them: its `$DIR`
/// names that directory.
final class TestScripts {
    let directory: TemporaryDirectory

    init(_ scripts: [String: String]) throws {
        directory = try TemporaryDirectory()
        for (name, body) in scripts {
            chmod(try directory.write(name, body), 0o755)
        }
    }

    deinit {
        directory.remove()
    }

    func config(_ text: String) -> String {
        text.replacingOccurrences(of: "$DIR", with: directory.url.path)
    }

    func path(_ name: String) -> String { directory.url.path + "/" + name }

    /// What a script wrote into `name` in the directory; empty when it wrote nothing.
    func file(_ name: String) -> String {
        (try? String(contentsOfFile: path(name), encoding: .utf8)) ?? ""
    }
}
