import Foundation
import Glibc
import System
import TestSupport
import Testing

@Suite("system layer")
struct SystemTests {
    // MARK: SystemError

    @Test func systemErrorsNameTheCallThePathAndTheReason() {
        let error = SystemError(call: "open", subject: "/path", errno: ENOENT)
        #expect(error.description == "open(/path): No such file or directory")
        #expect(SystemError(call: "read", errno: EAGAIN).description == "read: Resource temporarily unavailable")
    }

    @Test func failedCallsThrowTheirSystemError() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let inotify = try Inotify()
        let missing = directory.appending("missing")
        #expect(throws: SystemError(call: "inotify_add_watch", subject: missing, errno: ENOENT)) {
            try inotify.watch(directory: missing)
        }
        let file = directory.appending("file")
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let error = try #require(throws: SystemError.self) { try inotify.watch(directory: file) }
        #expect(error.description == "inotify_add_watch(\(file)): Not a directory")
    }

    // MARK: WallClockTimer

    @Test func timerFiresAtItsWallClockDate() throws {
        let timer = try WallClockTimer()
        let target = Date().addingTimeInterval(0.05)
        try timer.arm(at: target)
        #expect(try Poller.waitUntilReadable(timer.fileDescriptor, timeout: .seconds(5)), "timer never fired")
        #expect(Date() >= target.addingTimeInterval(-0.001), "timer fired before its date")
        #expect(timer.consume() == .fired)
        #expect(timer.consume() == .nothing)
    }

    @Test func disarmedTimerNeverFires() throws {
        let timer = try WallClockTimer()
        #expect(try !Poller.waitUntilReadable(timer.fileDescriptor, timeout: .milliseconds(100)))
        try timer.arm(at: Date().addingTimeInterval(0.02))
        try timer.arm(at: nil)
        #expect(try !Poller.waitUntilReadable(timer.fileDescriptor, timeout: .milliseconds(100)))
        #expect(timer.consume() == .nothing)
    }

    @Test(arguments: [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -5), Date().addingTimeInterval(-60)])
    func pastDatesFireAtOnce(_ date: Date) throws {
        // The epoch itself would be an all-zero it_value, which means "disarm" to timerfd_settime.
        let timer = try WallClockTimer()
        try timer.arm(at: date)
        #expect(try Poller.waitUntilReadable(timer.fileDescriptor, timeout: .seconds(5)), "timer never fired")
        #expect(timer.consume() == .fired)
    }

    @Test func rearmingReplacesTheDate() throws {
        let timer = try WallClockTimer()
        try timer.arm(at: Date().addingTimeInterval(3600))
        try timer.arm(at: Date().addingTimeInterval(0.02))
        #expect(try Poller.waitUntilReadable(timer.fileDescriptor, timeout: .seconds(5)), "timer never fired")
        #expect(timer.consume() == .fired)
    }

    @Test func aRepeatingTimerFiresEveryPeriodAndCountsThePeriodsLeftUnread() throws {
        let timer = try WallClockTimer()
        let first = Date().addingTimeInterval(0.02)
        try timer.arm(at: first, every: 0.05)
        #expect(try Poller.waitUntilReadable(timer.fileDescriptor, timeout: .seconds(5)), "timer never fired")
        // One period, or more when this thread was not run within 50 ms of the first (a loaded machine).
        let firstRead = timer.consumeCounting()
        #expect(firstRead.event == .fired && firstRead.expirations >= 1, "\(firstRead)")
        // Fires again one period on, with nothing armed in between.
        #expect(try Poller.waitUntilReadable(timer.fileDescriptor, timeout: .seconds(5)), "timer did not repeat")
        #expect(Date() >= first.addingTimeInterval(0.05 - 0.001), "the repeat came before its period")
        #expect(timer.consumeCounting().event == .fired)
        // Periods passed unread are counted: at least the three of 0.15 s, waited for on a second timer.
        let later = try WallClockTimer()
        try later.arm(at: Date().addingTimeInterval(0.16))
        #expect(try Poller.waitUntilReadable(later.fileDescriptor, timeout: .seconds(5)))
        let (event, expirations) = timer.consumeCounting()
        #expect(event == .fired && expirations >= 3, "\(expirations)")
        try timer.arm(at: nil)
        #expect(timer.consumeCounting() == (.nothing, 0))
    }

    // The clock-change path (read failing with ECANCELED) needs the realtime clock to be set, which takes
    // CAP_SYS_TIME and would disturb everything else on the machine; it is not tested here.

    // MARK: Inotify

    @Test func saveByRenameIsSeen() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let inotify = try Inotify()
        let watch = try inotify.watch(directory: directory.path, mask: .fileChanges)
        #expect(inotify.readEvents().isEmpty)

        // What an editor does: write a temporary file, then rename it over the config.
        try writeClosingOnExec("widgets: {}\n", to: directory.appending(".widgets.yaml.swp"))
        #expect(rename(directory.appending(".widgets.yaml.swp"), directory.appending("widgets.yaml")) == 0)

        let events = try waitForEvents(inotify) { $0.contains { $0.name == "widgets.yaml" } }
        let renamed = try #require(events.first { $0.name == "widgets.yaml" }, "no event for widgets.yaml: \(events)")
        #expect(renamed.mask.contains(.movedTo))
        #expect(renamed.watch == watch)
        #expect(events.contains { $0.name == ".widgets.yaml.swp" && $0.mask.contains(.closeWrite) })
    }

    @Test func writesInPlaceAndDeletesAreSeen() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let inotify = try Inotify()
        try inotify.watch(directory: directory.path)
        try writeClosingOnExec("a", to: directory.appending("out.txt"))
        var events = try waitForEvents(inotify) { $0.contains { $0.mask.contains(.closeWrite) } }
        #expect(events.contains { $0.name == "out.txt" && $0.mask.contains(.create) })
        #expect(unlink(directory.appending("out.txt")) == 0)
        events = try waitForEvents(inotify) { $0.contains { $0.mask.contains(.delete) } }
        #expect(events.map(\.name) == ["out.txt"])
    }

    @Test func unwatchingEndsTheWatch() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let inotify = try Inotify()
        let watch = try inotify.watch(directory: directory.path)
        try inotify.unwatch(watch)
        let events = try waitForEvents(inotify) { $0.contains { $0.mask.contains(.ignored) } }
        #expect(events.last?.watch == watch)
        try "a".write(toFile: directory.appending("after"), atomically: false, encoding: .utf8)
        #expect(try !Poller.waitUntilReadable(inotify.fileDescriptor, timeout: .milliseconds(50)))
    }

    /// Writes `text` as an editor would, through a descriptor no child process inherits. Foundation's writes leave
    /// out `O_CLOEXEC`, so a process another test starts at that moment could keep the file open, and the close that
    /// raises `IN_CLOSE_WRITE` would come only when that process ends.
    private func writeClosingOnExec(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0, "open \(path): errno \(errno)")
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        #expect(write(descriptor, bytes, bytes.count) == bytes.count)
    }

    private func waitForEvents(
        _ inotify: Inotify, until done: ([Inotify.Event]) -> Bool
    ) throws -> [Inotify.Event] {
        var events: [Inotify.Event] = []
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while !done(events) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            if try Poller.waitUntilReadable(inotify.fileDescriptor, timeout: left) { events += inotify.readEvents() }
        }
        return events
    }

    // MARK: Wakeup

    @Test func wakeupFromAnotherThread() throws {
        let wakeup = try Wakeup()
        #expect(try !Poller.waitUntilReadable(wakeup.fileDescriptor, timeout: .zero))
        let done = onAnotherThread {
            for _ in 0..<1000 { wakeup.signal() }
        }
        #expect(try Poller.waitUntilReadable(wakeup.fileDescriptor, timeout: .seconds(5)), "never woken")
        #expect(done.wait(timeout: .now() + 5) == .success)
        // However many signals, one drain clears them.
        #expect(wakeup.drain())
        #expect(try !Poller.waitUntilReadable(wakeup.fileDescriptor, timeout: .zero))
        #expect(!wakeup.drain())
    }

    // MARK: SignalFile

    /// Thread-directed signals (`pthread_kill` to this thread) with the signals blocked in this thread only.
    ///
    /// A process-directed `kill(getpid())` could go to any of the test runner's threads that does not block
    /// the signal, and SIGHUP's default action would end the test run; a signal sent to this thread while it
    /// blocks it stays pending here, where this thread's signalfd reads it. The test is synchronous so it
    /// stays on one thread throughout.
    @Test func signalsArriveAsData() throws {
        let signals = [SIGHUP, SIGTERM, SIGINT]
        var previous = sigset_t()
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        #expect(pthread_sigmask(SIG_BLOCK, &set, &previous) == 0)
        defer {
            // Take anything still pending before unblocking: unblocked, SIGHUP would end the test process.
            var none = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&set, nil, &none) > 0 {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }

        let signalFile = try SignalFile(signals: signals)
        #expect(signalFile.readSignals().isEmpty)
        #expect(pthread_kill(pthread_self(), SIGTERM) == 0)
        #expect(pthread_kill(pthread_self(), SIGHUP) == 0)
        #expect(try Poller.waitUntilReadable(signalFile.fileDescriptor, timeout: .seconds(5)), "no signal arrived")
        // Standard signals are delivered lowest number first, whatever the order they were sent in.
        #expect(signalFile.readSignals() == [SIGHUP, SIGTERM])
        #expect(signalFile.readSignals().isEmpty)
        #expect(try !Poller.waitUntilReadable(signalFile.fileDescriptor, timeout: .zero))
    }

    @Test func blockingAndUnblockingChangeThisThreadsMask() throws {
        var before = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        try SignalFile.blockInThisThread([SIGUSR2])
        var now = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &now)
        #expect(sigismember(&now, SIGUSR2) == 1)
        try SignalFile.unblockInThisThread([SIGUSR2])
        pthread_sigmask(SIG_SETMASK, nil, &now)
        #expect(sigismember(&now, SIGUSR2) == 0)
    }

    // MARK: Poller

    @Test func pollerReportsReadableAndHungUpDescriptors() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (reader, writer) = (ends[0], ends[1])
        defer { close(reader) }
        #expect(try Poller.readable([reader], timeout: .milliseconds(20)).isEmpty)
        #expect(Glibc.write(writer, "x", 1) == 1)
        #expect(try Poller.readable([reader, writer], timeout: nil).all == [reader])
        var byte: UInt8 = 0
        #expect(read(reader, &byte, 1) == 1)
        // A closed write end is reported, so the owner reads, sees end of file and stops watching.
        close(writer)
        #expect(try Poller.readable([reader], timeout: .seconds(5)).all == [reader])
    }

    @Test func pollerRefusesANumberThatIsNoDescriptor() throws {
        // Far above any descriptor a test can have open; a just-closed number could be reused by a test
        // running in parallel.
        let bogus: Int32 = 1_000_000
        #expect(throws: SystemError(call: "poll", subject: "descriptor \(bogus)", errno: EBADF)) {
            try Poller.readable([bogus], timeout: .zero)
        }
    }

    // MARK: LockFile

    @Test func secondLockIsRefusedWithTheHoldersPid() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("lock")
        var first: LockFile? = try LockFile(path: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid())\n")

        // A second open file description, as a second daemon would have: flock refuses it.
        let error = try #require(throws: LockFileError.self) { try LockFile(path: path) }
        #expect(error == .alreadyRunning(pid: getpid()))
        #expect(error.description == "already running (pid \(getpid()))")

        // Released with the descriptor, once no other process holds a copy of it: a child that another test is
        // spawning holds every descriptor of this process until its exec closes the close-on-exec ones (CI saw the
        // lock still held once), so the second lock is taken with a deadline.
        first = nil
        let deadline = ContinuousClock.now + .seconds(5)
        var taken: LockFile?
        while taken == nil {
            do {
                taken = try LockFile(path: path)
            } catch {
                guard case .alreadyRunning = error, ContinuousClock.now < deadline else { throw error }
                usleep(1_000)
            }
        }
        let second = try #require(taken)
        second.remove()
        #expect(access(path, F_OK) != 0)
        _ = first
    }

    @Test func aStalePidInAnUnlockedFileDoesNotCount() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("lock")
        try "99999999\nleftover\n".write(toFile: path, atomically: false, encoding: .utf8)
        let lock = try LockFile(path: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid())\n")
        _ = lock
    }
}
