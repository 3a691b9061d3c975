import Foundation

/// The one place output code calls into libc: retries `EINTR` and turns failures into `OutputError`s.
enum Syscall {
    /// Runs `body`, a C call that returns -1 and sets `errno` on failure, again while it fails with `EINTR`.
    @discardableResult
    static func retrying<Result: FixedWidthInteger>(
        _ call: String, path: String, _ body: () -> Result
    ) throws(OutputError) -> Result {
        while true {
            let result = body()
            if result != -1 {
                return result
            }
            let code = errno
            if code != EINTR {
                throw OutputError(call: call, path: path, errno: code)
            }
        }
    }
}
