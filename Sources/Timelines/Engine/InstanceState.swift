import FoundationEssentials
import TimeZones

/// Everything the engine knows about one instance: its latest timeline, its reload deadlines, and how its
/// last provider call went. Pure: every method takes `now`.
struct InstanceState<Instance: ScheduledInstance> {
    let instance: Instance
    let placeholder: EntryContent
    /// The last timeline a provider returned; kept through failures so the widget shows its last good entry.
    var timeline: Timeline?
    /// Content restored from the previous run, shown until the first timeline arrives.
    var restored: EntryContent?
    /// Why the last provider call failed, and how many have failed in a row.
    var failure: String?
    var consecutiveFailures = 0
    var retryAt: Date?
    /// When the provider's policy wants the next timeline (already rate limited).
    var policyDeadline: Date?
    /// The next `schedule:` fire time.
    var cronDeadline: Date?
    /// A reload was asked for (start-up, FIFO, app) and has not started yet.
    var requested = false
    /// A reload was asked for while one was running: exactly one more follows it.
    var requestedDuringReload = false
    /// The token of the provider call in flight, if one is.
    var inFlight: UInt64?
    /// When the call in flight counts as failed.
    var inFlightDeadline: Date?
    var lastReloadStart: Date?
    /// Timelines in a row whose policy asked for a reload at once (`.after(now)`, an empty `.atEnd`).
    var eagerStreak = 0
    /// The content last handed to the outputs, so unchanged entries are not written again.
    var shown: EntryContent?
    /// The record (timeline, fallback, failure) changed since the loop was last told; true for a new instance.
    var recordChanged = true
    /// Bumped whenever the deadline changes, so stale heap items are recognised.
    var generation: UInt64 = 0

    init(instance: Instance, placeholder: EntryContent) {
        self.instance = instance
        self.placeholder = placeholder
    }

    /// The earliest instant a reload is due on its own (policy, schedule or retry), ignoring requests.
    var reloadDeadline: Date? {
        [policyDeadline, cronDeadline, retryAt].compactMap { $0 }.min()
    }

    /// What the widget shows at `now`: the current entry of the last good timeline (marked stale while the
    /// provider fails), else the restored or placeholder content; dynamic dates written out.
    func content(at now: Date) -> EntryContent {
        ShownContent.at(
            now, entries: timeline?.entries ?? [], sequence: timeline?.sequence, fallback: fallback, failure: failure)
    }

    /// What the instance shows without a timeline entry: the restored content, else the placeholder.
    var fallback: EntryContent { restored ?? placeholder }

    /// The next instant anything about this instance changes: an entry swap, a dynamic date tick, or a reload.
    func nextWake(after now: Date) -> Date? {
        if requested && inFlight == nil { return now }
        var candidates: [Date] = []
        if let change = ShownContent.nextChange(
            after: now, entries: timeline?.entries ?? [], sequence: timeline?.sequence, fallback: fallback)
        {
            candidates.append(change)
        }
        if inFlight == nil, let deadline = reloadDeadline {
            candidates.append(deadline)
        }
        if inFlight != nil, let deadline = inFlightDeadline {
            candidates.append(deadline)
        }
        return candidates.min()
    }

    /// The next `schedule:` time after `now`, read in the instance's zone (local when none is given).
    func nextCronDate(after now: Date) -> Date? {
        instance.schedule?.nextDate(after: now, in: instance.timeZone ?? .current)
    }

    /// The reload time a timeline's policy asks for, rate limited: never sooner than the minimum spacing
    /// after the reload that produced it, and with a doubling spacing when the provider keeps asking for
    /// immediate reloads.
    mutating func schedulePolicy(of timeline: Timeline, now: Date, settings: EngineSettings) {
        let asked: Date?
        switch timeline.policy {
        case .never: asked = nil
        case .after(let date): asked = date
        case .atEnd: asked = timeline.lastEntryDate ?? now
        }
        guard let asked else {
            policyDeadline = nil
            eagerStreak = 0
            return
        }
        eagerStreak = asked <= now ? eagerStreak + 1 : 0
        let spacing =
            eagerStreak > 0
            ? max(settings.minimumPolicySpacing, settings.backoff(afterFailures: eagerStreak))
            : settings.minimumPolicySpacing
        let earliest = (lastReloadStart ?? now).addingTimeInterval(spacing)
        policyDeadline = max(asked, earliest)
    }
}
