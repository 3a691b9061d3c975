import FoundationEssentials
import Kind
import Synchronization
import Timelines

/// A network widget's session: a subscription to the process's one `RouteListener`, the toggle between `format:` and
/// `format_alt:`, and the previous counters its throughput is measured from. It pushes a timeline only when the text
/// it shows changes.
final class NetworkSession: ProviderSession {
    private struct Shown {
        var alternate = false
        var content: EntryContent?
        var previous: (counters: InterfaceCounters, interface: String, at: ContinuousClock.Instant)?
        var rates: (down: UInt64, up: UInt64)?
        var quality: WirelessQuality?
    }

    private let presentation: NetworkPresentation
    private let alternateFormat: PlaceholderFormat
    private let samples: Bool
    /// Whether a format names `{ssid}`, which nl80211 is asked for at each change.
    private let asksSSID: Bool
    private let files: SystemFiles
    private let listener: RouteListener
    private let instance: String
    private let updates: @Sendable (SessionUpdate) -> Void
    private let shown = Mutex(Shown())
    private let subscription = Mutex<RouteListener.Subscription?>(nil)

    /// The running sessions by instance name, for an `intent` line (which reaches the kind, not the session).
    private static let running = Mutex<[String: NetworkSession]>([:])

    private init(
        presentation: NetworkPresentation, alternateFormat: PlaceholderFormat, sampleInterval: Duration?,
        files: SystemFiles, listener: RouteListener, instance: String,
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) {
        self.presentation = presentation
        self.alternateFormat = alternateFormat
        self.samples = sampleInterval != nil
        self.asksSSID = ([presentation.format, alternateFormat] + [presentation.formatDown]).contains {
            $0.placeholders.contains("ssid")
        }
        self.files = files
        self.listener = listener
        self.instance = instance
        self.updates = updates
    }

    /// Subscribes; the listener's thread shows the state as soon as it has it, and from then on each change (and each
    /// sample, when `sampleInterval` is given). Nothing is read here: the caller (the daemon's loop) never waits for
    /// the kernel, and every entry comes from the one thread, in order. Why changes cannot be heard, if they cannot, is
    /// said once as a note.
    static func start(
        presentation: NetworkPresentation, alternateFormat: PlaceholderFormat, sampleInterval: Duration?,
        files: SystemFiles, listener: RouteListener, instance: String,
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) throws -> NetworkSession {
        let session = NetworkSession(
            presentation: presentation, alternateFormat: alternateFormat, sampleInterval: sampleInterval,
            files: files, listener: listener, instance: instance, updates: updates)
        let subscription = try listener.subscribe(sampleInterval: sampleInterval) { [weak session] network, cause in
            session?.heard(network, cause)
        }.get()
        session.subscription.withLock { $0 = subscription }
        running.withLock { $0[instance] = session }
        return session
    }

    /// Toggles `format_alt:` for the session of `instance`; false when none runs.
    static func toggle(instance: String) -> Bool {
        guard let session = running.withLock({ $0[instance] }) else { return false }
        session.toggle()
        return true
    }

    func deliver(_ invocation: IntentInvocation) -> String? {
        if invocation.intent == NetworkKind.toggleIntent { toggle() }
        return nil
    }

    func stop() {
        subscription.withLock { $0?.cancel() }
        Self.running.withLock { if $0[instance] === self { $0[instance] = nil } }
    }

    /// Shown by the listener's thread, which may ask nl80211 for the SSID: not on the caller's.
    private func toggle() {
        shown.withLock { $0.alternate.toggle() }
        subscription.withLock { $0 }?.retell()
    }

    /// What the listener's thread tells: the first call samples (starting the throughput's counters) and says why
    /// changes cannot be heard, if they cannot; so does the socket's failure later.
    private func heard(_ network: NetworkState, _ cause: RouteListener.Cause) {
        if cause == .subscribed || cause == .failed, let problem = listener.problem { updates(.note(problem)) }
        show(network, sampling: cause == .subscribed || cause == .sample)
    }

    /// Renders `network`; `sampling` reads the counters and the link quality first. Pushes only a changed text.
    private func show(_ network: NetworkState, sampling: Bool) {
        let (link, name) = presentation.link(in: network)
        let counters =
            sampling && samples
            ? name.flatMap { name in
                files.text("/proc/net/dev").flatMap { InterfaceCounters(procNetDev: $0, interface: name) }
            }
            : nil
        let quality =
            sampling && samples
            ? name.flatMap { name in
                files.text("/proc/net/wireless").flatMap { WirelessQuality(procNetWireless: $0, interface: name) }
            } : nil
        let ssid =
            asksSSID && link?.isRunning == true ? link.flatMap { WirelessQuery.ssid(ofInterface: $0.index) } : nil
        let problem = listener.problem
        let now = ContinuousClock.now
        let content: EntryContent? = shown.withLock { shown in
            if sampling && samples {
                if let counters, let name, let previous = shown.previous, previous.interface == name {
                    let seconds = (now - previous.at) / .seconds(1)
                    shown.rates = counters.rates(since: previous.counters, over: seconds)
                } else {
                    shown.rates = nil
                }
                shown.previous = counters.flatMap { counters in name.map { (counters, $0, now) } }
                shown.quality = quality
            }
            var presentation = presentation
            if shown.alternate { presentation.format = alternateFormat }
            var content = presentation.content(network, rates: shown.rates, quality: shown.quality, ssid: ssid)
            if network.links.isEmpty, let problem {
                // No dump and no socket: "no interface" would be a claim about the machine, not about the daemon.
                content = EntryContent(text: "no network state", tooltip: problem, classes: ["absent"])
            } else if let problem {
                // The state as last heard, no longer followed: shown, but as stale, the reason in the tooltip.
                content.state = .stale
                content.tooltip = [content.tooltip, problem].compactMap { $0 }.joined(separator: "\n")
            }
            guard content != shown.content else { return nil }
            shown.content = content
            return content
        }
        if let content {
            updates(.timeline(Timeline(entries: [TimelineEntry(date: Date(), content: content)], policy: .never)))
        }
    }
}
