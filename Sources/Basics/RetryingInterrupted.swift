import Glibc

/// Runs `body`, a C call that returns -1 and sets `errno` on failure, again for as long as it fails with `EINTR`;
/// returns its last result, with `errno` as the call left it.
///
/// The one place that retries `EINTR`. It lives in Basics, the bottom layer, so that every module that makes system
/// calls can reach it: System's `systemCall` is built on it, and code that handles failures itself (`EAGAIN` on a
/// non-blocking pipe, `EPIPE` from a reader that left, a child already reaped, a directory that exists already) calls
/// it directly. A `poll` loop that works out its timeout again on every turn
/// takes `EINTR` as a wake-up with nothing ready instead: retrying it here would wait the old timeout again.
///
/// Inlinable: called from other modules unspecialized, every result would be compared with -1 through
/// `FixedWidthInteger`'s witnesses, on every wake (docs/PERFORMANCE.md, "Swap cost").
@inlinable
@discardableResult
public func retryingInterrupted<Result: FixedWidthInteger>(_ body: () -> Result) -> Result {
    while true {
        let result = body()
        if result != -1 || errno != EINTR { return result }
    }
}
