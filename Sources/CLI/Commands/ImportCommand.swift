import Config
import FoundationEssentials
import Output
import Runtime

/// `widgetd import i3blocks [FILE]`: prints widgets.yaml for an i3blocks config, then the new i3blocks config as
/// comments (or into `--i3blocks-config PATH`).
enum ImportCommand {
    static func run(
        file: String?, i3blocksOutput: String?, environment: [String: String], console: Console
    ) -> Int32 {
        let candidates = file.map { [$0] } ?? I3blocksImport.searchPath(environment: environment)
        guard let path = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else {
            console.err(
                "widgetd: error: no i3blocks config found; looked at \(candidates.joined(separator: ", "))")
            return ExitCode.failure
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            console.err("widgetd: error: cannot read \(path)")
            return ExitCode.failure
        }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let result = I3blocksImport.translate(String(decoding: data, as: UTF8.self), path: absolute)
        var text = result.yaml
        if let i3blocksOutput {
            do {
                // 0666 less the umask, as any editor writes a config file.
                try AtomicFile.write(Array(result.i3blocksConfig.utf8), to: i3blocksOutput, permissions: 0o666)
            } catch {
                console.err("widgetd: error: cannot write \(i3blocksOutput): \(error.reason)")
                return ExitCode.failure
            }
        } else {
            text += "\n# The i3blocks config that shows these widgets (save it without the leading '# '):\n"
            text +=
                result.i3blocksConfig.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .map { $0.isEmpty ? "#" : "# " + $0 }.joined(separator: "\n") + "\n"
        }
        console.out(String(text.dropLast()))
        // On the terminal too: the YAML usually goes to a file, and a key binding left as it was ends i3blocks 1.4.
        if let heading = result.signalAdvice.first {
            console.err("widgetd: note: " + heading + ":")
            for line in result.signalAdvice.dropFirst() { console.err("  " + line) }
        }
        return ExitCode.success
    }
}
