import CLinux

/// glibc malloc settings for the daemon, which starts with large short-lived arrays and then runs for days.
public enum MallocSettings {
    /// Blocks of 128 kiB and more are always mapped on their own, so that freeing one gives its pages back.
    ///
    /// 128 kiB is glibc's default threshold, but glibc raises it to the size of every mapped block freed (up to
    /// 32 MiB): after the configuration's parse freed its arrays of 10,000 YAML pairs, the engine's start-up actions and
    /// the timelines' arrays were carved out of the heap instead, and their pages stayed resident after they were
    /// freed, under the long-lived data allocated around them (docs/PERFORMANCE.md, "Memory per instance").
    /// Steady-state allocations are far smaller, so this costs no system calls after start-up.
    public static func returnLargeBlocksWhenFreed() {
        _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
    }
}
