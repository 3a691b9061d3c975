/// The process a kind's provider runs in when it is a program of its own, outside the daemon (a plugin's), as the
/// daemon and the commands use it: its calls wait on that program without holding a thread, and whoever loaded the
/// kind ends the program when done with it.
///
/// A capability a kind has or lacks (`WidgetKind.providerProcess`), so that the daemon and the commands serve and stop
/// any such kind without knowing the type that implements it.
public protocol ProviderProcess: AnyObject, Sendable {
    /// Ends the program and everything it started; calls still waiting fail. Nothing starts it again.
    func stop()
}
