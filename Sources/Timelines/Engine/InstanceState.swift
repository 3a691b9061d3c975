import FoundationEssentials
import TimeZones

/// Everything the engine knows about one instance: its latest timeline, its reload deadlines, and how its
/// last provider call went. Pure: every method takes `now`.
@usableFromInline
struct InstanceState<Instance: ScheduledInstance>: Sendable {
    // The engine holds one state per widget, 10,000 of them in the benchmark's largest config: the fields stand in an
    // order that leaves few padding bytes (the flags in the instance's tail, the counters beside the contents, each
    // optional date's flag byte followed by a field that needs 8-byte alignment only where none can be helped).
    @usableFromInline let instance: Instance
    /// A reload was asked for (start-up, FIFO, app) and has not started yet.
    var requested = false
    /// A reload was asked for while one was running: exactly one more follows it.
    var requestedDuringReload = false
    /// The record (timeline, fallback, failure) changed since the loop was last told; true for a new instance.
    var recordChanged = true
    /// What the instance shows without a timeline entry: the content restored from the previous run, else the
    /// placeholder. One field, not both: nothing reads the placeholder once a restored entry replaces it.
    let fallback: EntryContent
    /// How many provider calls have failed in a row.
    var consecutiveFailures: Int32 = 0
    /// The content last handed to the outputs, so unchanged entries are not written again.
    var shown: EntryContent?
    /// Timelines in a row whose policy asked for a reload at once (`.after(now)`, an empty `.atEnd`).
    var eagerStreak: Int32 = 0
    /// The last timeline a provider returned; kept through failures so the widget shows its last good entry.
    var timeline: Timeline?
    /// Why the last provider call failed.
    var failure: String?
    var retryAt: Date?
    /// When the provider's policy wants the next timeline (already rate limited).
    var policyDeadline: Date?
    /// The next `schedule:` fire time.
    var cronDeadline: Date?
    /// The provider call in flight, if one is: its token, and when it counts as failed.
    var call: (token: UInt64, deadline: Date)?
    /// When the last reload started: for one the policy, the schedule or a retry started, the deadline it was due at
    /// (the loop wakes a little after it), for a request's, the instant it started. The policy's spacing counts from a
    /// deadline, not from the late start: counted from the start, a widget sampled every second would start each
    /// sample later than the one before and leave its interval's boundaries.
    var lastReload: LastReload?

    init(instance: Instance, fallback: EntryContent) {
        self.instance = instance
        self.fallback = fallback
    }

    /// The token of the provider call in flight, if one is.
    @usableFromInline var inFlight: UInt64? { call?.token }

    /// A provider answered at least once: with a timeline, or with a failure (a timeout, a stopped command included).
    var hasAnswered: Bool { timeline != nil || failure != nil }

    /// The earliest instant a reload is due on its own (policy, schedule or retry), ignoring requests.
    var reloadDeadline: Date? {
        // Compared in place: this runs at every swap, and an array of the three would be an allocation each time.
        earliest(earliest(policyDeadline, cronDeadline), retryAt)
    }

    /// What the widget shows at `now`: the current entry of the last good timeline (marked stale while the
    /// provider fails), else the restored or placeholder content; dynamic dates written out.
    @usableFromInline func content(at now: Date) -> EntryContent {
        // A computed timeline (a clock) is read in place, not copied out of its box (`Timeline.withSequence`); it has
        // no stored entries.
        if let content = timeline?.withSequence({ ShownContent.at(now, sequence: $0, failure: failure) }) {
            return content
        }
        return ShownContent.at(now, entries: timeline?.entries ?? [], fallback: fallback, failure: failure)
    }

    /// The next instant anything about this instance changes: an entry swap, a dynamic date tick, or a reload.
    func nextWake(after now: Date) -> Date? {
        if requested && inFlight == nil { return now }
        // As `ShownContent.nextChange` answers for a sequence, with the sequence read in place.
        let change: Date?
        if let next = timeline?.withSequence({ $0.nextEntryDate(after: now) }) {
            change = next
        } else {
            change = ShownContent.nextChange(after: now, entries: timeline?.entries ?? [], fallback: fallback)
        }
        return earliest(change, call?.deadline ?? reloadDeadline)
    }

    /// `nextWake(after:)`, called in place: mutating only so that the engine's generic code reaches the state through
    /// the array's `_modify` instead of copying it (see `Engine.states`).
    mutating func wake(after now: Date) -> Date? {
        nextWake(after: now)
    }

    /// The name and token of the provider call in flight when it has run past its deadline at `now`. Mutating only to
    /// be called in place, as `wake(after:)`.
    mutating func callTimedOut(at now: Date) -> (instance: String, token: UInt64)? {
        guard let call, call.deadline <= now else { return nil }
        return (instance.name, call.token)
    }

    /// One look at the instance at `now` (its call did not time out): appends `.show` when its content changed,
    /// `.recordChanged` when its record did, and `.reload` when a reload is due, numbered from `nextToken`.
    mutating func step(
        now: Date, settings: EngineSettings, nextToken: inout UInt64, into actions: inout [EngineAction]
    ) {
        let content = content(at: now)
        if content != shown {
            shown = content
            actions.append(.show(instance: instance.name, content: content))
        }
        if recordChanged {
            recordChanged = false
            actions.append(.recordChanged(instance: instance.name))
        }
        guard inFlight == nil else { return }
        // Read before the schedule's fire time moves on: a reload the schedule started was due at that time, and the
        // policy's spacing counts from it as from a policy's or a retry's deadline.
        let dueAt = reloadDeadline.flatMap { $0 <= now ? $0 : nil }
        if let cron = cronDeadline, cron <= now {
            cronDeadline = nextCronDate(after: now)
        }
        guard requested || dueAt != nil else { return }
        requested = false
        if let policy = policyDeadline, policy <= now { policyDeadline = nil }
        if let retry = retryAt, retry <= now { retryAt = nil }
        let token = nextToken
        nextToken += 1
        lastReload = LastReload(at: dueAt ?? now, wasDue: dueAt != nil)
        actions.append(.reload(instance: instance.name, token: token))
        // A persistent provider answers no call: the reload starts it if it is not running, and its updates arrive
        // through `install` whenever it has them.
        if !instance.isPersistent {
            call = (token, now.addingTimeInterval(settings.timeout(of: instance)))
        }
    }

    /// Takes `timeline` as the provider's latest good answer, from a reload or pushed (an intent, a persistent
    /// command): any failure and its backoff end, and the timeline's policy sets the next reload.
    mutating func accept(_ timeline: Timeline, now: Date, settings: EngineSettings) {
        self.timeline = timeline
        failure = nil
        consecutiveFailures = 0
        retryAt = nil
        schedulePolicy(of: timeline, now: now, settings: settings)
    }

    /// The next `schedule:` time after `now`, read in the instance's zone (local when none is given).
    func nextCronDate(after now: Date) -> Date? {
        instance.schedule?.nextDate(after: now, in: instance.timeZone ?? .current)
    }

    /// The reload time a timeline's policy asks for, rate limited: never sooner than the minimum spacing after the
    /// deadline of the reload that produced it, and with a doubling spacing when the provider keeps asking for
    /// immediate reloads. A date in the future asked after a request's reload is kept as it is: a sampled widget's
    /// first answer asks for its interval's next boundary, however soon that is, and from there on its reloads are a
    /// whole interval apart.
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
        if asked <= now { eagerStreak.addOneSaturating() } else { eagerStreak = 0 }
        let spacing =
            eagerStreak > 0
            ? max(settings.minimumPolicySpacing, settings.backoff(afterFailures: Int(eagerStreak)))
            : settings.minimumPolicySpacing
        let anchor = eagerStreak > 0 ? lastReload?.at ?? now : lastReload.flatMap { $0.wasDue ? $0.at : nil }
        policyDeadline = anchor.map { max(asked, $0.addingTimeInterval(spacing)) } ?? asked
    }
}

/// When an instance's last reload started, and whether a deadline started it (`InstanceState.lastReload`). One
/// optional of a date and a flag, not two optional dates: the engine holds one per widget.
struct LastReload: Sendable {
    var at: Date
    var wasDue: Bool
}

extension Int32 {
    /// One more, or `max` at `max`: a count of failures in a row never wraps to a negative one.
    mutating func addOneSaturating() {
        if self < .max { self += 1 }
    }
}

/// The earlier of two optional dates; nil only when both are.
private func earliest(_ a: Date?, _ b: Date?) -> Date? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}
