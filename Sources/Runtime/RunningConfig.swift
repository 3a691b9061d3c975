import Control

/// The config the running daemon runs, as it read it: `<runtime dir>/running-config.yaml`.
///
/// The CLI resolves the widgets it names (their names, kinds and bars) against this copy rather than against
/// widgets.yaml (`WidgetSource`): a file saved with a mistake is refused by the daemon, which keeps its config, and
/// must stop no click, reload, intent, `show` or `bar` meanwhile. Written at start-up before `daemon.json`, after each
/// config the daemon applies, and again when the runtime directory is made again; removed at a clean stop with
/// `daemon.json`.
public enum RunningConfig {
    public static let fileName = "running-config.yaml"

    public static func path(in control: ControlPaths) -> String { control.directory + "/" + fileName }
}
