import FoundationEssentials

/// How the daemon runs a kind's provider for one instance; the kind decides from the instance's settings, so the
/// engine and the daemon know nothing of any one kind.
public struct RunMode: Sendable, Hashable {
    /// Calls block their thread for as long as a program runs: they get threads of their own, so a few hanging
    /// scripts hold up nothing else.
    public var blocksThread: Bool
    /// How long one call may take, when the kind asks for longer than the daemon's default; its own limit should
    /// come first, so the engine allows a second more.
    public var timeout: TimeInterval?
    /// The provider keeps running and pushes updates through a session (`ProviderSession`) instead of answering
    /// timeline calls; a reload starts it when it is not running.
    public var isPersistent: Bool
    /// The real-time signal (`SIGRTMIN+N`, N in 1–30) whose arrival reloads the instance, as the kind derives it from
    /// the instance's settings; nil for none. The daemon reloads every instance that names the number it got.
    public var reloadSignal: Int?

    public init(
        blocksThread: Bool = false, timeout: TimeInterval? = nil, isPersistent: Bool = false,
        reloadSignal: Int? = nil
    ) {
        self.blocksThread = blocksThread
        self.timeout = timeout
        self.isPersistent = isPersistent
        self.reloadSignal = reloadSignal
    }

    /// A kind that answers in-process, on the shared provider threads.
    public static let inProcess = RunMode()
}
