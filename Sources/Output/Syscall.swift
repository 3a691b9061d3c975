import FoundationEssentials
import System

/// Output code's way into libc: `systemCall` (which retries `EINTR`), with failures as `OutputError`s
/// that name the path written.
enum Syscall {
    /// Runs `body`, a C call that returns -1 and sets `errno` on failure.
    @discardableResult
    static func retrying<Result: FixedWidthInteger>(
        _ call: String, path: String, _ body: () -> Result
    ) throws(OutputError) -> Result {
        do {
            return try systemCall(call, path, body)
        } catch {
            throw OutputError(call: call, path: path, errno: error.errno)
        }
    }
}
