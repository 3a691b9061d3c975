internal import CLinux

/// Giving freed heap memory back to the kernel.
public enum FreedMemory {
    /// Returns the whole free pages of every malloc arena to the kernel (`malloc_trim(0)`).
    ///
    /// For after a large working set is freed all at once, such as a closed SQLite connection's page cache and
    /// schema: glibc returns only the free space at the very top of an arena by itself, and a long-running daemon
    /// would otherwise keep those pages resident until it happens to reuse them. It walks every arena, so it is not
    /// for a hot path.
    public static func giveBack() {
        _ = malloc_trim(0)
    }
}
