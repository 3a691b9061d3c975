import Basics
import Glibc

/// The example widgets.yaml that ships beside the binary, for advice to a user who has no config yet.
enum ExampleConfig {
    /// Where the example is: under the prefix the binary was installed to (`scripts/install`, the .deb), or in the
    /// checkout a development binary was built in (`.build/x86_64-unknown-linux-gnu/debug/widgetd`, which
    /// `.build/debug` links to, → `config/widgets.yaml`); nil when none is.
    static func path() -> String? {
        var candidates: [String] = []
        if let binary = SymbolicLink.target(of: "/proc/self/exe") {
            let directory = Path.directory(of: binary)
            candidates += [
                directory + "/../share/doc/widgetd/examples/widgets.yaml",
                directory + "/../../../config/widgets.yaml",
            ]
        }
        candidates.append("/usr/share/doc/widgetd/examples/widgets.yaml")
        guard let found = candidates.first(where: { access($0, R_OK) == 0 }), let resolved = realpath(found, nil)
        else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The commands that put the example at `configPath`, for a config that is not there.
    static func advice(for configPath: String) -> String? {
        guard let example = path() else { return nil }
        // A dangling link is filled where it points (`cp` does not write through one).
        let configPath = SymbolicLink.target(of: configPath) ?? configPath
        let directory = Path.directory(of: configPath)
        // A bare file name is in the current directory, which is there; so may a named directory be.
        let mkdir =
            directory.isEmpty || access(directory, F_OK) == 0 ? "" : "mkdir -p \(ShellQuoting.quoted(directory)) && "
        return "start from the example: \(mkdir)cp \(ShellQuoting.quoted(example)) "
            + ShellQuoting.quoted(configPath)
    }
}
