import Basics
internal import CLinux
import Glibc

/// Writes to a pipe another process reads (i3bar's, handed over by `widgetd bar`): never waiting, and never half a
/// line.
extension FileDescriptor {
    /// Makes writes on this descriptor return at once (`O_NONBLOCK`); the flag belongs to the open file, so every copy
    /// of the descriptor, in any process, shares it.
    public func setNonBlocking(_ nonBlocking: Bool = true) throws(SystemError) {
        try Self.setNonBlocking(rawValue, nonBlocking)
    }

    /// `setNonBlocking` on a descriptor this process does not own as a `FileDescriptor` (its standard output).
    public static func setNonBlocking(_ descriptor: Int32, _ nonBlocking: Bool) throws(SystemError) {
        let flags = try systemCall("fcntl") { fcntl(descriptor, F_GETFL) }
        let wanted = nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        if wanted != flags { _ = try systemCall("fcntl") { fcntl(descriptor, F_SETFL, wanted) } }
    }

    /// Writes `bytes` to this non-blocking pipe if they fit whole now; false when they do not (its reader is behind),
    /// or the write failed (its reader is gone). Only this process writes to the pipe meanwhile, so the room it has is
    /// the room the write finds.
    public func writeWholeToPipe(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard widgetd_pipe_room(rawValue) >= bytes.count else { return false }
        return retryingInterrupted { Glibc.write(rawValue, bytes.baseAddress, bytes.count) } == bytes.count
    }
}
