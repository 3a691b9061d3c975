/// What `statvfs` says of a file system, in its own blocks.
public struct FileSystemBlocks: Sendable, Hashable {
    /// `f_frsize`: the unit of the block counts, as `df` multiplies them.
    public var fragmentSize: UInt64
    /// `f_blocks`, `f_bfree` (free, including the blocks reserved for root) and `f_bavail` (free to users).
    public var blocks: UInt64
    public var free: UInt64
    public var available: UInt64

    public init(fragmentSize: UInt64, blocks: UInt64, free: UInt64, available: UInt64) {
        self.fragmentSize = fragmentSize
        self.blocks = blocks
        self.free = free
        self.available = available
    }
}

/// The space of a mount point in bytes, as `df` and i3status's `disk` module count it.
public struct DiskSpace: Sendable, Hashable {
    public var total: UInt64
    public var used: UInt64
    public var free: UInt64
    public var available: UInt64

    public init(_ blocks: FileSystemBlocks) {
        // statvfs's counts are the file system's word: a FUSE one may say anything.
        total = saturating(blocks.blocks, times: blocks.fragmentSize)
        used = saturating(blocks.blocks - min(blocks.free, blocks.blocks), times: blocks.fragmentSize)
        free = saturating(blocks.free, times: blocks.fragmentSize)
        available = saturating(blocks.available, times: blocks.fragmentSize)
    }

    /// i3status's percentages: each of the total size, so used and free add up to 100 (`df`'s `Use%` is of used +
    /// avail instead, which leaves out root's reserve: `{percentage_used_of_avail}` is the nearer to it).
    public func percentage(_ bytes: UInt64) -> Double {
        total == 0 ? 0 : 100 * Double(bytes) / Double(total)
    }

    /// i3status's `percentage_used_of_avail`: what users cannot write any more, of the total.
    public var usedOfAvailable: UInt64 { total - min(available, total) }
}
