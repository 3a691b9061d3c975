import FoundationEssentials
import System

/// Output code's way into libc: `systemCall` (which retries `EINTR`), with failures as `OutputError`s
/// that name the path written.
enum Syscall {
    /// Runs `body`, a C call that returns -1 and sets `errno` on failure. `path` is only made when the call fails: a
    /// swap makes four calls, and building their paths was a share of its user-space time.
    @discardableResult
    static func retrying<Result: FixedWidthInteger>(
        _ call: String, path: @autoclosure () -> String, _ body: () -> Result
    ) throws(OutputError) -> Result {
        do {
            return try systemCall(call, nil, body)
        } catch {
            throw OutputError(call: call, path: path(), errno: error.errno)
        }
    }
}
