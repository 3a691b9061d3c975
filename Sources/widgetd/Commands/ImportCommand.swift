import Foundation

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
                try result.i3blocksConfig.write(toFile: i3blocksOutput, atomically: true, encoding: .utf8)
            } catch {
                console.err("widgetd: error: cannot write \(i3blocksOutput): \(error.localizedDescription)")
                return ExitCode.failure
            }
        } else {
            text += "\n# The i3blocks config that shows these widgets (save it without the leading '# '):\n"
            text +=
                result.i3blocksConfig.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .map { $0.isEmpty ? "#" : "# " + $0 }.joined(separator: "\n") + "\n"
        }
        console.out(String(text.dropLast()))
        return ExitCode.success
    }
}
