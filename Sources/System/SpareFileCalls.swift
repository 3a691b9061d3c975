internal import CLinux
import Glibc

/// The two Linux calls behind rewriting an output file's spare inode instead of making a new one
/// (`AtomicFile.rewriteSpare` in Output): both are GNU extensions that Swift's Glibc module does not import.
public enum SpareFileCalls {
    /// Swaps the names `first` and `second` in `directory` in one step (`renameat2(RENAME_EXCHANGE)`); -1 and `errno`
    /// on failure: `ENOENT` when either is missing, `EINVAL` where the filesystem cannot exchange.
    public static func exchange(in directory: Int32, _ first: String, _ second: String) -> Int32 {
        widgetd_rename_exchange(directory, first, second)
    }

    /// `exchange(in:_:_:)` with the names as C strings the caller keeps (the output writer's, made once per file).
    public static func exchange(
        in directory: Int32, _ first: UnsafePointer<CChar>, _ second: UnsafePointer<CChar>
    ) -> Int32 {
        widgetd_rename_exchange(directory, first, second)
    }

    /// Takes a write lease on the open file (`fcntl(F_SETLEASE, F_WRLCK)`): it succeeds only while no other
    /// descriptor, in any process, has the file open (`EAGAIN` otherwise), and until the descriptor is closed any
    /// other open() of the file waits. -1 and `errno` on failure (`EINVAL` where leases are off or unsupported).
    ///
    /// Breaking a lease sends its holder SIGIO, whose default action ends the process: `ignoreLeaseBreaks()` first.
    public static func takeWriteLease(_ descriptor: Int32) -> Int32 {
        widgetd_take_write_lease(descriptor)
    }

    /// Gives the lease up (`fcntl(F_SETLEASE, F_UNLCK)`), at once, for every descriptor of the open file. Closing
    /// gives it up only with the last of them, and a child this process is starting holds a copy of each descriptor
    /// until its exec closes it: meanwhile a reader's open() would wait, or fail with `EAGAIN` if non-blocking.
    public static func releaseLease(_ descriptor: Int32) {
        _ = widgetd_release_lease(descriptor)
    }

    /// Gives the open file the pages for `length` bytes from its start without changing its size
    /// (`fallocate(FALLOC_FL_KEEP_SIZE)`): a write there later finds them allocated. -1 and `errno` on failure
    /// (`EOPNOTSUPP` where the filesystem cannot).
    public static func reserveSpace(_ descriptor: Int32, length: Int) -> Int32 {
        widgetd_reserve_space(descriptor, Int64(length))
    }

    /// Ignores SIGIO in this process unless something already handles it. A lease's holder is sent SIGIO when
    /// another process opens the file; the holder here gives its lease up within microseconds, once the file is written,
    /// so the signal says nothing it needs. Children get SIGIO's default back (`ChildAttributes`).
    public static func ignoreLeaseBreaks() {
        _ = ignoringLeaseBreaks
    }

    private static let ignoringLeaseBreaks: Bool = {
        var current = sigaction()
        guard sigaction(SIGIO, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return false }
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        return sigaction(SIGIO, &ignore, nil) == 0
    }()
}
