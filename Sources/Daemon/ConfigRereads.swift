import Control

/// Which `config` lines of one FIFO read make one re-read of widgets.yaml: those in a row, answered together once it
/// is done. Each re-read is a whole parse and apply, and a flood of 100,000 (`yes config > control`) kept the loop from
/// the clocks for seconds. Any other line is decided after the re-read its run asks for, against the config it brought.
///
/// A value with no I/O, so the rule is tested without a daemon (`Daemon.handleControlLines` carries it out).
struct ConfigRereads {
    /// A run of `config` lines is held, waiting for its one re-read.
    private(set) var isHolding = false
    private var acknowledgements: [ControlCommand.AckToken] = []

    /// Holds the requests of one line when they are `config` requests only; false for any other line, which the
    /// daemon carries out after `takeReread`.
    mutating func hold(_ requests: [DaemonRequest]) -> Bool {
        let configOnly = requests.allSatisfy {
            if case .reloadConfiguration = $0 { return true } else { return false }
        }
        guard configOnly else { return false }
        isHolding = true
        for case .reloadConfiguration(let acknowledgement?) in requests {
            acknowledgements.append(acknowledgement)
        }
        return true
    }

    /// The re-read the held run asks for: the acknowledgements to answer once it is done; nil when none is held.
    mutating func takeReread() -> [ControlCommand.AckToken]? {
        guard isHolding else { return nil }
        defer {
            isHolding = false
            acknowledgements = []
        }
        return acknowledgements
    }
}
