/// The CPU time counters of /proc/stat: the `cpu` line and one `cpuN` line per core, in clock ticks since boot.
public struct CPUTimes: Sendable, Hashable {
    /// One line's counters, reduced to what usage needs.
    public struct Counters: Sendable, Hashable {
        /// Every tick: user, nice, system, idle, iowait, irq, softirq and steal (guest time is inside user already).
        public var total: UInt64
        /// Ticks with nothing to run: idle and iowait, as top and htop count them.
        public var idle: UInt64

        public init(total: UInt64, idle: UInt64) {
            self.total = total
            self.idle = idle
        }

        /// The busy share, 0–100, of the ticks between `earlier` and these; nil when no tick passed (two samples in
        /// the same tick) or the counters went back (a CPU taken offline and back resets its line).
        public func usage(since earlier: Counters) -> Double? {
            guard total > earlier.total, idle >= earlier.idle else { return nil }
            let elapsed = Double(total - earlier.total)
            let idleTicks = Double(min(idle - earlier.idle, total - earlier.total))
            return 100 * (elapsed - idleTicks) / elapsed
        }

        /// Usage since boot: the delta from nothing.
        public var usageSinceBoot: Double? { usage(since: Counters(total: 0, idle: 0)) }
    }

    public var overall: Counters
    /// By core number (`cpu3` is `cores[3]`); a core missing from the file (offline) is nil.
    public var cores: [Counters?]

    public init(overall: Counters, cores: [Counters?]) {
        self.overall = overall
        self.cores = cores
    }

    /// Reads the text of /proc/stat; nil when it has no `cpu` line.
    public init?(procStat text: String) {
        self.init(procStat: ProcFields(text))
    }

    /// Reads /proc/stat's bytes: the `cpu` and `cpuN` lines, which come first, and nothing after them.
    init?(procStat file: ProcFields) {
        var overall: Counters?
        var cores: [Counters?] = []
        file.forEachLine { fields in
            guard file.field(fields[0], startsWith: "cpu") else { return overall == nil }
            guard fields.count >= 5 else { return true }
            let numbers = fields.dropFirst().prefix(8).map { file.number($0) ?? 0 }
            let counters = Counters(
                total: numbers.reduce(0, &+), idle: numbers[3] &+ (numbers.count > 4 ? numbers[4] : 0))
            let name = fields[0]
            if name.count == 3 {
                overall = counters
            } else if let index = file.number(name.lowerBound + 3..<name.upperBound), index < 4096 {
                while cores.count <= Int(index) { cores.append(nil) }
                cores[Int(index)] = counters
            }
            return true
        }
        guard let overall else { return nil }
        self.init(overall: overall, cores: cores)
    }
}

/// Usage, 0–100, overall and per core, between two samples.
public struct CPUUsage: Sendable, Hashable {
    public var overall: Double
    public var cores: [Double?]

    /// From `earlier` to `later`; without `earlier` (the first sample of an instance), since boot, as i3status's
    /// first line shows it: a sample must not wait for a second one, and the next sample takes the delta.
    public init(from earlier: CPUTimes?, to later: CPUTimes) {
        func usage(_ now: CPUTimes.Counters, _ then: CPUTimes.Counters?) -> Double {
            (then.flatMap { now.usage(since: $0) } ?? now.usageSinceBoot) ?? 0
        }
        overall = usage(later.overall, earlier?.overall)
        cores = later.cores.enumerated().map { index, counters in
            guard let counters else { return nil }
            let then = earlier.flatMap { index < $0.cores.count ? $0.cores[index] : nil }
            return usage(counters, then)
        }
    }
}
