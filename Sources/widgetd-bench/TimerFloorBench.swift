import Glibc

/// How late a bare wall-clock timer wakes this process: the floor under "first file of a second". A daemon woken at
/// a second boundary cannot write before its timer returns, so its first file is measured against this.
///
/// The benchmark sleeps with `clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME)` to every 10 ms boundary (the daemon's
/// wall-clock timer is absolute on the same clock) and records how far past each boundary it woke.
enum TimerFloorBench {
    static func run(samples: Int) -> Summary {
        var lateness: [Double] = []
        lateness.reserveCapacity(samples)
        for _ in 0..<samples {
            let target = (realtime() * 100).rounded(.down) / 100 + 0.01
            var deadline = timespec(
                tv_sec: Int(target.rounded(.down)), tv_nsec: Int(((target - target.rounded(.down)) * 1e9).rounded()))
            while clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &deadline, nil) == EINTR {}
            lateness.append(realtime() - Double(deadline.tv_sec) - Double(deadline.tv_nsec) / 1e9)
        }
        return Summary(lateness)
    }
}
