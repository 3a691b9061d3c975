import Basics

/// The names and words of commands as widgets.yaml writes them, read as a shell and i3blocks would: a script
/// parameter's name and the environment name it is exported under, and a program under the home directory.
extension ConfigValidator {
    /// A script parameter's name: ASCII letters, digits, `_`, `-` and `.` (i3blocks 1.5 takes `T.WARN`), not starting
    /// with a digit, `-` or `.`, so that `WIDGETD_PARAM_<NAME>` is a name a shell reads and no two names map to one
    /// unseen.
    static func isScriptParameterName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isASCIILetter(first) else { return false }
        return name.utf8.allSatisfy { byte in
            isASCIILetter(byte) || (48...57).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
        }
    }

    /// `max-age` → `MAX_AGE`, `T.WARN` → `T_WARN`, as the exec kind exports it.
    static func scriptParameterEnvironmentName(_ name: String) -> String {
        String(name.uppercased().map { $0 == "-" || $0 == "." ? "_" : $0 })
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte)
    }

    /// A path `~` or `~/…` under the home directory, as a shell reads it: no shell runs an argv, and `[~/bin/s]` was
    /// run as a file under a directory named `~`.
    static func expandingHome(_ word: String) -> String {
        guard word == "~" || word.hasPrefix("~/") else { return word }
        return Path.homeDirectory() + word.dropFirst()
    }

    /// `argv` with its program under the home directory when written `~/…`. The arguments stay as written: one may be
    /// text (`widgetd import i3blocks` prints a block's `full_text` with `[printf, '%s\n', TEXT]`), and there would be
    /// no way to pass a literal `~/`.
    static func programUnderHome(_ argv: [String]) -> [String] {
        guard let program = argv.first else { return argv }
        return [expandingHome(program)] + argv.dropFirst()
    }
}
