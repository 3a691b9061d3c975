import Basics
import Glibc

/// A system call that failed, with the call's name, what it was applied to and `errno`.
///
/// Reads like a shell's error: `open(/run/user/1000/widgetd/control): No such file or directory`.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function that failed, such as `open` or `read`.
    public var call: String
    /// The path or other subject the call was about, when there is one; shown in parentheses.
    public var subject: String?
    /// The `errno` the call left.
    public var errno: Int32

    public init(call: String, subject: String? = nil, errno: Int32) {
        self.call = call
        self.subject = subject
        self.errno = errno
    }

    /// The C library's text for `errno`, such as "No such file or directory".
    public var reason: String {
        // strerror_r, not strerror: strerror may share one buffer between threads.
        var buffer = [CChar](repeating: 0, count: 256)
        guard strerror_r(errno, &buffer, buffer.count) == 0 else { return "error \(errno)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String {
        let place = subject.map { "\(call)(\($0))" } ?? call
        return "\(place): \(reason)"
    }
}

/// Runs `body`, a system call that returns -1 and sets `errno` on failure, until it is not interrupted.
///
/// Every wrapper in `System/` and `Control/` goes through here so that `EINTR` is never seen by callers
/// (a signal arriving during `read` or `poll` is not a failure) and every failure names its call.
/// Modeled on swift-nio's `syscall(blocking:where:)`; like it, errors that can only mean a bug in this
/// process (a closed or never-opened descriptor, a bad pointer) stop the process rather than being thrown,
/// because carrying on could read or write a descriptor that now belongs to someone else.
///
/// - Parameters:
///   - call: the C function's name, for the error.
///   - subject: what it was applied to (usually a path), for the error.
/// - Returns: the call's non-negative result.
///
/// Inlinable, as `retryingInterrupted` (Basics) is: called from other modules unspecialized, every result would be
/// compared with -1 through `FixedWidthInteger`'s witnesses, on every wake (docs/PERFORMANCE.md, "Swap cost").
@inlinable
@discardableResult
public func systemCall<Result: FixedWidthInteger>(
    _ call: String, _ subject: String? = nil, _ body: () -> Result
) throws(SystemError) -> Result {
    let result = retryingInterrupted(body)
    guard result == -1 else { return result }
    let code = errno
    precondition(code != EBADF && code != EFAULT, "\(call) failed with errno \(code): a bug in widgetd")
    throw SystemError(call: call, subject: subject, errno: code)
}
