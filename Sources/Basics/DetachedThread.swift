internal import CLinux
import Glibc

/// Starts a detached POSIX thread, for work that blocks (a command's pipes, a plugin's replies, provider jobs).
///
/// Foundation's `Thread` did this; its module brings ICU along, which the daemon does not link. The thread's stack is
/// the process's default (`RLIMIT_STACK`), as Foundation's was.
public enum DetachedThread {
    /// Runs `body` on a new detached thread named `name` (`pthread_create`, `PR_SET_NAME`). Linux keeps 15
    /// bytes of a name, so a longer one is cut, on a character boundary.
    /// - Throws: `DetachedThread.StartError` when the system refuses a new thread (`EAGAIN`: too many threads).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(StartError) {
        let box = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { argument in
                let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
                _ = widgetd_name_this_thread(body.shortName)
                body.run()
                return nil
            }, box)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw StartError(errno: result)
        }
    }

    /// The system refused a thread; `errno` is `pthread_create`'s result.
    public struct StartError: Error, CustomStringConvertible {
        public var errno: Int32
        public var description: String { "cannot start a thread: \(String(cString: strerror(errno)))" }
    }

    private final class Body {
        let shortName: String
        let run: @Sendable () -> Void

        init(name: String, run: @escaping @Sendable () -> Void) {
            var short = ""
            for character in name where short.utf8.count + character.utf8.count <= 15 { short.append(character) }
            shortName = short
            self.run = run
        }
    }
}
