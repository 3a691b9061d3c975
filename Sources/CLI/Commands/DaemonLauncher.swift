import Kind
import Providers
import Runtime

/// How `widgetd run` starts the daemon in this process. The CLI does not depend on the Daemon target: the executable
/// (Sources/Main), which links both, hands it this, so that the compiler keeps every command out of the daemon's
/// state, and the commands talk to a running daemon only through its files and the FIFO.
public struct DaemonLauncher {
    /// Runs the daemon until it stops and returns the exit code; the last argument prints why it could not start.
    public typealias Run = (
        _ configPath: String, _ logLevel: LogLevel, _ standard: KindRegistry, _ store: StoreAccess,
        _ environment: [String: String], _ reportError: (String) -> Void
    ) -> Int32

    public var run: Run

    public init(run: @escaping Run) {
        self.run = run
    }
}
