/// A file format a status bar reads; each instance writes `<output_dir>/<name>.<format>`.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    case plain
    case i3blocks
    case i3bar
    case waybar
    case polybar
    case tmux
}
