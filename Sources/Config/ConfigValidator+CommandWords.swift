import Basics

/// The words of commands as widgets.yaml writes them, read as a shell would: a program under the home directory.
extension ConfigValidator {
    /// A path `~` or `~/…` under the home directory, as a shell reads it: no shell runs an argv, and `[~/bin/s]` was
    /// run as a file under a directory named `~`.
    public static func expandingHome(_ word: String) -> String {
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
