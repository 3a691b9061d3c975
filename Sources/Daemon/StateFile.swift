import Control
import FoundationEssentials
import Output
import Runtime

/// One of the files the daemon keeps about itself and its widgets, besides the bar files and records
/// (`OutputWriter`): where it goes, how loudly its failure is logged, and whether a failed write is tried again.
enum StateFile: Hashable {
    /// `<runtime dir>/daemon.json`: where the daemon is, for every CLI command (`DaemonState`).
    case daemon
    /// `<runtime dir>/running-config.yaml`: the config the daemon runs, for the CLI to resolve widgets against
    /// (`RunningConfig`).
    case runningConfig
    /// `<runtime dir>/status/<name>.json`: a widget's policy, next reload and last error, for `list` and `status`
    /// (`InstanceStatusRecord`).
    case status(String)
    /// `<runtime dir>/acks/TOKEN`: a request is done (empty) or why it failed, for a waiting CLI.
    case acknowledgement(ControlCommand.AckToken)
    /// `$XDG_STATE_HOME/widgetd/entries/<name>.json`: a widget's record cut to its current entry, for the next run
    /// (`EntryMemory`).
    case kept(String)

    func path(in paths: DaemonPaths) -> String {
        switch self {
        case .daemon: DaemonState.path(in: paths.control)
        case .runningConfig: RunningConfig.path(in: paths.control)
        case .status(let name): InstanceStatusRecord.path(for: name, in: paths.status)
        case .acknowledgement(let token): paths.control.acknowledgement(token)
        case .kept(let name): EntryMemory.path(of: name, in: paths.entries)
        }
    }

    /// Where the file is in the runtime directory (`directory` nil: in the directory itself), written and removed by
    /// descriptor (`RuntimeDirectory`); nil for a kept entry, which is under `$XDG_STATE_HOME`.
    var inRuntimeDirectory: (directory: RuntimeDirectory.Entry?, name: String)? {
        switch self {
        case .daemon: (nil, DaemonState.fileName)
        case .runningConfig: (nil, RunningConfig.fileName)
        case .status(let name): (.status, InstanceStatusRecord.fileName(for: name))
        case .acknowledgement(let token): (.acknowledgements, token.rawValue)
        case .kept: nil
        }
    }

    /// A file that says how things are now is written again until it works; an acknowledgement is not (its client
    /// waits with a deadline of its own and reports it), nor a kept entry (written again at the next timeline and at
    /// the stop).
    var isRetried: Bool {
        switch self {
        case .daemon, .runningConfig, .status: true
        case .acknowledgement, .kept: false
        }
    }

    /// How a failure is logged: the CLI falls back without `daemon.json` or the running config, and a `--wait` fails
    /// without its acknowledgement, so those are warnings; a missing status or kept entry costs a column of `list` or a
    /// placeholder after a restart.
    var failureLevel: LogLevel {
        switch self {
        case .daemon, .runningConfig, .acknowledgement: .warning
        case .status, .kept: .debug
        }
    }

    /// The log line for a failed write.
    func failure(_ error: any Error, path: String) -> String {
        switch self {
        case .daemon, .runningConfig: "cannot write \(path): \(error)"
        case .status(let name): "\(name): cannot write its status: \(error)"
        case .acknowledgement(let token): "cannot acknowledge \(token): \(error)"
        case .kept(let name): "\(name): cannot keep its record: \(error)"
        }
    }
}
