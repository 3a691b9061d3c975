import Config
import Control
import Kind
import Runtime
import Timelines

/// One thing a control line asks the daemon to do, as `RequestDispatcher` decided it; the daemon carries it out
/// (`Daemon+Control`). A value, so which line gives which requests is tested without a daemon.
enum DaemonRequest: Equatable {
    /// Reload what `target` names, acknowledging once the reloads are written; `line`, as it was read, is quoted in
    /// the log when the target names no widget.
    case reload(ReloadTarget, acknowledgement: ControlCommand.AckToken?, line: String)
    /// Re-read widgets.yaml, then acknowledge.
    case reloadConfiguration(acknowledgement: ControlCommand.AckToken?)
    /// Start the `on_click:` command bound to `button`, detached.
    case startCommand([String], instance: String, button: MouseButton, acknowledgement: ControlCommand.AckToken?)
    /// A click that runs an intent: handed to the instance's running persistent command when it has one, else run
    /// by its kind.
    case performClick(IntentInvocation, on: WidgetInstance, acknowledgement: ControlCommand.AckToken?)
    /// An `intent` line, run by the instance's kind.
    case performIntent(IntentInvocation, on: WidgetInstance, acknowledgement: ControlCommand.AckToken?)
    /// Answer a waiting CLI at once: done, or why not.
    case acknowledge(ControlCommand.AckToken, failure: String?)
    /// A log line. A `limited` one is caused by whoever wrote the line, and counts against the FIFO's log limit
    /// (`LogRateLimiter`).
    case log(LogLevel, String, limited: Bool)
}
