/// Text written into a command line for `sh`: the commands an import writes, and the ones advice tells a user to run.
enum ShellQuoting {
    /// `text` in single quotes, each `'` in it written as `'\''`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "'\\''") + "'"
    }
}
