/// What tmux 3.3a draws for a line of `#(command)` output: its two passes over `#`, as `Escaping.appendTmux` describes
/// them and `TmuxTests` checks on the real tmux.
enum TmuxStatusLine {
    /// The text drawn and the styles (`#[…]`'s insides) opened, in order; nil when the output would make tmux expand
    /// something (a lone `#` before anything but `[`: a variable, a command, an alias).
    static func drawn(_ output: String) -> (text: String, styles: [String])? {
        guard let expanded = expanded(Array(output)) else { return nil }
        var text = ""
        var styles: [String] = []
        var position = 0
        while position < expanded.count {
            guard expanded[position] == "#" else {
                text.append(expanded[position])
                position += 1
                continue
            }
            let runStart = position
            while position < expanded.count && expanded[position] == "#" { position += 1 }
            let run = position - runStart
            text += String(repeating: "#", count: run / 2)
            guard run % 2 == 1 else { continue }
            // An odd run: before `[` it opens a style that runs to `]`; before anything else the last `#` is literal.
            guard position < expanded.count, expanded[position] == "[",
                let close = expanded[position...].firstIndex(of: "]")
            else {
                text.append("#")
                continue
            }
            styles.append(String(expanded[(position + 1)..<close]))
            position = close + 1
        }
        return (text, styles)
    }

    /// The first pass, expansion as a format: `##` is one `#`, and a run of `#`s before `[` is copied whole.
    private static func expanded(_ output: [Character]) -> [Character]? {
        var result: [Character] = []
        var position = 0
        while position < output.count {
            guard output[position] == "#" else {
                result.append(output[position])
                position += 1
                continue
            }
            let runStart = position
            while position < output.count && output[position] == "#" { position += 1 }
            if position < output.count && output[position] == "[" {
                // An odd run opens a style, which the drawing reads up to its `]` (colours are `#rrggbb` in it).
                let end =
                    (position - runStart) % 2 == 1 ? output[position...].firstIndex(of: "]") ?? position : position
                result += output[runStart...end]
                position = end + 1
                continue
            }
            let run = position - runStart
            guard run % 2 == 0 else { return nil }
            result += repeatElement("#", count: run / 2)
        }
        return result
    }
}
