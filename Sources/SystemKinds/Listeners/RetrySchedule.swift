/// When a process-wide listener tries again to reach a server that did not answer (the session bus, the sound
/// server): on a timer only where no `SocketPathWatch` can say when the server comes, so that a missing server costs
/// no wake-up while nothing happens.
enum RetrySchedule {
    /// The seconds between timed attempts: 1 s, then twice as long each time up to a minute, so that a machine that
    /// has no server is not polled fast.
    static let delays: [Int] = [1, 2, 4, 8, 16, 32, 60]
    /// The timed attempts at a server whose socket is there but refuses (one starting up, or the socket a killed one
    /// left), before only its directory is waited for: 1 + 2 + … + 32 s, a minute for a server to finish starting.
    static let refusedAttempts = 6

    /// The seconds until the next timed attempt after `attempts` timed ones since the server last answered (or its
    /// socket last appeared), or nil for none. With a `watch` on the server's sockets: only while one is there and
    /// refused, at most `refusedAttempts` times, since the watch hears a socket appear. Without: always, unless
    /// `canAppear` is false (the environment names nothing a server could ever be found at).
    static func delay(after attempts: Int, watch: SocketPathWatch?, canAppear: Bool = true) -> Int? {
        if let watch {
            guard watch.socketExists, attempts < refusedAttempts else { return nil }
        } else if !canAppear {
            return nil
        }
        return delays[min(attempts, delays.count - 1)]
    }
}
