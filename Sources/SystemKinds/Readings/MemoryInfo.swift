/// The lines of /proc/meminfo the memory kind reads, in bytes.
public struct MemoryInfo: Sendable, Hashable {
    public var total: UInt64
    public var free: UInt64
    /// `MemAvailable`: what can be had without swapping, the kernel's estimate (Linux 3.14 and later).
    public var available: UInt64
    public var buffers: UInt64
    /// `Cached` plus `SReclaimable`, as `free` counts its buff/cache column.
    public var cached: UInt64
    public var shared: UInt64
    public var swapTotal: UInt64
    public var swapFree: UInt64

    public init(
        total: UInt64, free: UInt64, available: UInt64, buffers: UInt64 = 0, cached: UInt64 = 0, shared: UInt64 = 0,
        swapTotal: UInt64 = 0, swapFree: UInt64 = 0
    ) {
        self.total = total
        self.free = free
        self.available = available
        self.buffers = buffers
        self.cached = cached
        self.shared = shared
        self.swapTotal = swapTotal
        self.swapFree = swapFree
    }

    /// Reads the text of /proc/meminfo (`Name:   123 kB` lines); nil without `MemTotal` and `MemFree`.
    public init?(procMeminfo text: String) {
        self.init(procMeminfo: ProcFields(text))
    }

    /// The names of the lines read, as /proc/meminfo writes them with their colon.
    private static let names: [StaticString] = [
        "MemTotal:", "MemFree:", "MemAvailable:", "Buffers:", "Cached:", "SReclaimable:", "Shmem:", "SwapTotal:",
        "SwapFree:",
    ]

    /// Reads /proc/meminfo's bytes, up to the last of the lines it reads (about half of the file).
    init?(procMeminfo file: ProcFields) {
        var values = [UInt64?](repeating: nil, count: Self.names.count)
        var found = 0
        file.forEachLine { line in
            guard line.count >= 2, let index = Self.names.firstIndex(where: { file.field(line[0], is: $0) }),
                values[index] == nil, let number = file.number(line[1])
            else { return true }
            let isKilobytes = line.count > 2 && file.field(line[2], is: "kB")
            values[index] = isKilobytes ? saturating(number, times: 1024) : number
            found += 1
            return found < Self.names.count
        }
        // In `names`' order.
        let (memAvailable, buffers, cached, reclaimable, shmem, swapTotal, swapFree) = (
            values[2], values[3] ?? 0, values[4] ?? 0, values[5] ?? 0, values[6] ?? 0, values[7] ?? 0, values[8] ?? 0
        )
        guard let total = values[0], let free = values[1] else { return nil }
        let cache = saturating(cached, plus: reclaimable)
        // Kernels before 3.14 have no MemAvailable; free(1) then falls back to free + buffers + cache, and so does this.
        self.init(
            total: total, free: free,
            available: memAvailable ?? min(total, saturating(saturating(free, plus: buffers), plus: cache)),
            buffers: buffers, cached: cache, shared: shmem, swapTotal: swapTotal, swapFree: swapFree)
    }

    /// How "used" is counted (i3status's `memory_used_method`).
    public enum UsedMethod: String, Sendable, CaseIterable {
        /// total − available: what `free` (procps 4) and i3status print by default.
        case memavailable
        /// total − free − buffers − cache: what GNOME's system monitor and procps 3's `free` printed.
        case classical
    }

    public func used(_ method: UsedMethod) -> UInt64 {
        switch method {
        case .memavailable: total - min(available, total)
        case .classical: total - min(total, saturating(saturating(free, plus: buffers), plus: cached))
        }
    }

    public var swapUsed: UInt64 { swapTotal - min(swapFree, swapTotal) }
}
