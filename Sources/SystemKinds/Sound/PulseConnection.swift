import Basics
internal import CPulse
import FoundationEssentials
import Glibc
import Synchronization

/// The process's one connection to the sound server (PulseAudio, or PipeWire's pulse server), shared by every sound
/// widget: one libpulse context on one `pa_threaded_mainloop` thread, started by the first subscriber.
///
/// Subscribed to the server's sink, source and server events, each of which (coalesced while a read is under way)
/// re-reads the default sink and source and every device, and tells each subscriber the new state: nothing wakes when
/// nothing changes. When no server answers, or it goes away, the subscribers are told `noServer` once, and while
/// anyone listens the connection waits for a server without waking on a timer where it can: the local sockets libpulse
/// would connect to (`PulseServerAddress`) are watched by inotify on their directories (`SocketPathWatch`, polled by
/// the main loop itself), and the server is tried when one appears. A socket that is there but refuses (a server
/// starting up, or one killed that left its socket) is tried again after 1, 2, 4 … 32 s, then only when the directory
/// changes; a remote server, or a path inotify cannot watch, is tried again after 1 s, then twice as long each time up
/// to a minute (`RetrySchedule`). A new subscriber tries at once.
///
/// libpulse itself is loaded by the first subscriber (`dlopen`), not linked: a process without sound widgets never
/// maps it and the libraries under it, and a machine without it shows its sound widgets as `noServer`, the loader's
/// reason in the tooltip. Everything of libpulse's is touched on the main loop's thread (its callbacks) or with the
/// main loop's lock held: that is the lock `@unchecked Sendable` relies on.
public final class PulseConnection: @unchecked Sendable {
    /// The daemon's connection: to the server libpulse finds (`PULSE_SERVER`, client.conf, the user's runtime
    /// directory).
    public static let shared = PulseConnection(
        socketPaths: PulseServerAddress.socketPaths { getenv($0).map { String(cString: $0) } })

    /// One subscriber's wish to hear the state, until cancelled.
    public typealias Subscription = ListenerSubscription

    /// The subscribers and what they were told, under one lock.
    private struct Audience {
        var notify = Subscribers<@Sendable (SoundServerState) -> Void>()
        /// What the subscribers were told last.
        var latest: SoundServerState?
        /// `latest` with the intents sent since applied, which the next intent steps from.
        var working: SoundServerState?
    }

    private let subscribers = Mutex(Audience())
    /// Signalled when the first state is known, for a one-off reading (`state(waitingUpTo:)`).
    private let firstState = TimedSignal()

    /// libpulse, loaded by the first subscriber (`startLoop`) and kept: its thread runs for the rest of the process.
    private static let library = Result { () throws(SharedLibraryError) in
        try LoadedLibrary<widgetd_pulse>("libpulse.so.0") { widgetd_pulse_resolve($0, $1) }
    }

    /// libpulse's functions, once the main loop runs (`startLoop`).
    private var pulse: widgetd_pulse?
    // Under the main loop's lock, or on its thread.
    private var mainloop: OpaquePointer?
    private var context: OpaquePointer?
    /// A context that failed, released at the next attempt (not inside its own callback).
    private var failedContext: OpaquePointer?
    private var retryTimer: OpaquePointer?
    /// Timed attempts since the server last answered (or, while watching, since a socket last appeared).
    private var retries = 0
    /// Where the server's sockets will be, when inotify can wait for them.
    private let socketPaths: [String]?
    /// While there is no connection: the watch on the sockets' directories and the main loop's event on its
    /// descriptor; nil when there are no socket paths or inotify failed (then only the timer).
    private var watch: SocketPathWatch?
    private var watchEvent: OpaquePointer?
    private var reading = ReadInProgress()

    /// What one re-read has gathered so far; the three answers come in the order they were asked.
    private struct ReadInProgress {
        var running = false
        var again = false
        var defaultSink: String?
        var defaultSource: String?
        var devices: [SoundDevice] = []
    }

    /// `socketPaths`: the sockets of the server libpulse finds, to wait for by inotify; nil to wait on the timer.
    init(socketPaths: [String]?) {
        self.socketPaths = socketPaths
    }

    /// Calls `notify` (on the connection's thread) with the state now, if known, and at every change, until the
    /// subscription is cancelled. Starts the thread on first use and connects if there is no connection.
    public func subscribe(_ notify: @escaping @Sendable (SoundServerState) -> Void) -> Subscription {
        let (id, latest) = subscribers.withLock { subscribers in
            (subscribers.notify.add(notify), subscribers.latest)
        }
        if let latest { notify(latest) }
        withLoop { connectIfIdle() }
        return Subscription { self.remove(id) }
    }

    /// The state now, waiting for the first connection attempt's answer up to `timeout` (for `preview`, which starts
    /// no session); nil when none came.
    public func state(waitingUpTo timeout: Duration) -> SoundServerState? {
        withLoop { connectIfIdle() }
        firstState.wait(upTo: timeout) { self.subscribers.withLock { $0.latest } != nil }
        return subscribers.withLock { $0.latest }
    }

    private func remove(_ id: Int) {
        subscribers.withLock { $0.notify.remove(id) }
    }

    /// Runs `body` with the main loop's lock held, starting the main loop's thread first if it is not running.
    private func withLoop<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        if mainloop == nil {
            startLoop()
        }
        guard let mainloop, let pulse else { return try body() }
        pulse.threaded_mainloop_lock(mainloop)
        defer { pulse.threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// A static lock so that two first subscribers start one loop.
    private static let starting = Mutex(())

    private func startLoop() {
        Self.starting.withLock { _ in
            guard mainloop == nil else { return }
            let pulse: widgetd_pulse
            switch Self.library {
            case .success(let library): pulse = library.functions
            case .failure(let error): return publish(.noServer(reason: error.description))
            }
            self.pulse = pulse
            guard let loop = pulse.threaded_mainloop_new() else { return }
            pulse.threaded_mainloop_set_name(loop, "widgetd-pulse")
            guard pulse.threaded_mainloop_start(loop) == 0 else {
                pulse.threaded_mainloop_free(loop)
                publish(.noServer(reason: "cannot start libpulse's main loop thread"))
                return
            }
            mainloop = loop
        }
    }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func connection(_ userdata: UnsafeMutableRawPointer?) -> PulseConnection {
        Unmanaged<PulseConnection>.fromOpaque(userdata!).takeUnretainedValue()
    }

    /// Connects unless connected, connecting, or out of a loop; a retry waiting is brought forward.
    private func connectIfIdle() {
        guard mainloop != nil, context == nil else { return }
        cancelRetry()
        connect()
    }

    private func cancelRetry() {
        guard let mainloop, let pulse, let retryTimer else { return }
        pulse.threaded_mainloop_get_api(mainloop)?.pointee.time_free?(retryTimer)
        self.retryTimer = nil
    }

    /// Makes a context and starts connecting it (`pa_context_connect`); the answer comes to `stateChanged`.
    private func connect() {
        guard let mainloop, let pulse else { return }
        // Watching before the attempt, so that a socket made just after it fails is still heard.
        startWatching()
        if let failedContext {
            pulse.context_unref(failedContext)
            self.failedContext = nil
        }
        guard let context = pulse.context_new(pulse.threaded_mainloop_get_api(mainloop), "widgetd") else {
            failed("cannot make a libpulse context")
            return
        }
        self.context = context
        pulse.context_set_state_callback(
            context, { _, userdata in PulseConnection.connection(userdata).stateChanged() }, userdata)
        // No autospawn: a widget must not start a sound server on a machine that runs none.
        if pulse.context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            failed(Self.reason(pulse, context))
        }
    }

    /// libpulse's message for the context's last error.
    private static func reason(_ pulse: widgetd_pulse, _ context: OpaquePointer) -> String {
        pulse.strerror(pulse.context_errno(context)).map { String(cString: $0) } ?? "libpulse gave no reason"
    }

    private func stateChanged() {
        guard let context, let pulse else { return }
        switch pulse.context_get_state(context) {
        case PA_CONTEXT_READY:
            retries = 0
            stopWatching()
            pulse.context_set_subscribe_callback(
                context, { _, _, _, userdata in PulseConnection.connection(userdata).reread() }, userdata)
            let mask =
                PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue
                | PA_SUBSCRIPTION_MASK_SERVER.rawValue
            release(pulse.context_subscribe(context, pa_subscription_mask_t(rawValue: mask), nil, nil))
            reread()
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            failed(Self.reason(pulse, context))
        default:
            break
        }
    }

    /// The connection is lost or never came (no context could even be made, when `context` is nil): says so, and
    /// waits for a socket to appear, or tries again after the next delay, as `RetrySchedule` says.
    private func failed(_ reason: String) {
        guard let mainloop, let pulse else { return }
        if let context {
            pulse.context_set_state_callback(context, nil, nil)
            pulse.context_set_subscribe_callback(context, nil, nil)
            pulse.context_disconnect(context)
            failedContext = context
            self.context = nil
        }
        reading = ReadInProgress()
        publish(.noServer(reason: reason))
        startWatching()
        guard retryTimer == nil, let delay = RetrySchedule.delay(after: retries, watch: watch) else { return }
        retries += 1
        var when = timeval()
        _ = pulse.timeval_add(pulse.gettimeofday(&when), pa_usec_t(delay) * 1_000_000)
        let api = pulse.threaded_mainloop_get_api(mainloop)!
        retryTimer = api.pointee.time_new?(
            api, &when,
            { api, event, _, userdata in
                let connection = PulseConnection.connection(userdata)
                api?.pointee.time_free?(event)
                connection.retryTimer = nil
                connection.retry()
            }, userdata)
    }

    /// A retry's turn: connects again if anyone still listens; otherwise the next subscriber will.
    private func retry() {
        guard subscribers.withLock({ !$0.notify.isEmpty }) else { return }
        connect()
    }

    /// Watches the socket paths, if there are any and they are not watched yet, with an event of the main loop on the
    /// watch's descriptor (`socketPathChanged`).
    private func startWatching() {
        guard watch == nil, let socketPaths, let mainloop, let pulse, let watch = SocketPathWatch(paths: socketPaths)
        else {
            return
        }
        let api = pulse.threaded_mainloop_get_api(mainloop)!
        watchEvent = api.pointee.io_new?(
            api, watch.fileDescriptor, PA_IO_EVENT_INPUT,
            { _, _, _, _, userdata in PulseConnection.connection(userdata).socketPathChanged() }, userdata)
        if watchEvent != nil { self.watch = watch }
    }

    private func stopWatching() {
        if let mainloop, let pulse, let watchEvent {
            pulse.threaded_mainloop_get_api(mainloop)?.pointee.io_free?(watchEvent)
        }
        watchEvent = nil
        watch = nil
    }

    /// The watch's descriptor is readable: when a socket appeared (or its directory changed), tries at once and starts
    /// the timed attempts at a refusing socket afresh. With nobody listening the watch is dropped; the next
    /// subscriber connects.
    private func socketPathChanged() {
        guard let watch else { return }
        let relevant = watch.readEvents()
        guard subscribers.withLock({ !$0.notify.isEmpty }) else { return stopWatching() }
        guard relevant else { return }
        retries = 0
        cancelRetry()
        // A directory that could not be watched again: the timer, from now on.
        if !watch.isWatching { stopWatching() }
        if watch.socketExists || !watch.isWatching { connectIfIdle() }
    }

    /// Reads the server's defaults, then its sinks, then its sources, and publishes them together; an event during a
    /// read asks for one more read after it, so a burst of events costs two reads.
    private func reread() {
        guard let context, let pulse else { return }
        guard !reading.running else {
            reading.again = true
            return
        }
        reading = ReadInProgress(running: true)
        release(
            pulse.context_get_server_info(
                context,
                { _, info, userdata in
                    let connection = PulseConnection.connection(userdata)
                    connection.reading.defaultSink = info?.pointee.default_sink_name.map { String(cString: $0) }
                    connection.reading.defaultSource = info?.pointee.default_source_name.map { String(cString: $0) }
                }, userdata))
        release(
            pulse.context_get_sink_info_list(
                context,
                { _, info, _, userdata in
                    guard let info else { return }
                    PulseConnection.connection(userdata).reading.devices.append(
                        SoundDevice(
                            name: String(cString: info.pointee.name),
                            description: info.pointee.description.map { String(cString: $0) } ?? "",
                            direction: .sink, volume: SoundVolume(info.pointee.volume), muted: info.pointee.mute != 0))
                }, userdata))
        release(
            pulse.context_get_source_info_list(
                context,
                { _, info, end, userdata in
                    let connection = PulseConnection.connection(userdata)
                    if let info {
                        connection.reading.devices.append(
                            SoundDevice(
                                name: String(cString: info.pointee.name),
                                description: info.pointee.description.map { String(cString: $0) } ?? "",
                                direction: .source, volume: SoundVolume(info.pointee.volume),
                                muted: info.pointee.mute != 0))
                    }
                    if end != 0 { connection.readEnded() }
                }, userdata))
    }

    private func readEnded() {
        let read = reading
        reading = ReadInProgress()
        publish(.connected(defaultSink: read.defaultSink, defaultSource: read.defaultSource, devices: read.devices))
        if read.again { reread() }
    }

    /// Keeps `state` and tells every subscriber, unless it is what they were told last.
    private func publish(_ state: SoundServerState) {
        let notify: [@Sendable (SoundServerState) -> Void]? = subscribers.withLock { subscribers in
            subscribers.working = state
            guard subscribers.latest != state else { return nil }
            subscribers.latest = state
            return subscribers.notify.snapshot
        }
        guard let notify else { return }
        firstState.broadcast()
        for call in notify { call(state) }
    }

    /// Drops an operation's reference: nothing waits for the answers of the calls that pass no callback, and the
    /// others answer through their callbacks. nil (the call failed at once) has nothing to drop.
    private func release(_ operation: OpaquePointer?) {
        if let operation, let pulse { pulse.operation_unref(operation) }
    }

    /// Runs a widget's intent on `selector`'s device: toggles its mute, or moves its volume by `step` percent (up to
    /// `maximum` percent). The server's event that follows updates every widget; the state kept here changes at once
    /// too, so that the next scroll steps from the new volume before that event comes.
    /// - Returns: what was done, for the log.
    public func perform(_ action: SoundAction, on selector: String, step: Int, maximum: Int) throws(SoundError)
        -> String
    {
        try withLoop { () throws(SoundError) -> String in
            guard let context, let pulse, pulse.context_get_state(context) == PA_CONTEXT_READY,
                let state = subscribers.withLock({ $0.working ?? $0.latest })
            else { throw SoundError("no sound server") }
            guard var device = state.device(selector) else { throw SoundError("no sound device '\(selector)'") }
            let done: String
            switch action {
            case .toggleMute:
                device.muted.toggle()
                let mute: Int32 = device.muted ? 1 : 0
                release(
                    device.direction == .sink
                        ? pulse.context_set_sink_mute_by_name(context, device.name, mute, nil, nil)
                        : pulse.context_set_source_mute_by_name(context, device.name, mute, nil, nil))
                done = device.muted ? "muted \(device.name)" : "unmuted \(device.name)"
            case .volumeUp, .volumeDown:
                device.volume =
                    action == .volumeUp
                    ? device.volume.raised(byPercent: step, maximumPercent: maximum)
                    : device.volume.lowered(byPercent: step)
                var volume = device.volume.cvolume
                release(
                    device.direction == .sink
                        ? pulse.context_set_sink_volume_by_name(context, device.name, &volume, nil, nil)
                        : pulse.context_set_source_volume_by_name(context, device.name, &volume, nil, nil))
                done = "\(device.name) at \(device.volume.percent)%"
            }
            subscribers.withLock { subscribers in
                guard case .connected(let sink, let source, var devices)? = subscribers.working else { return }
                if let index = devices.firstIndex(where: { $0.name == device.name && $0.direction == device.direction })
                {
                    devices[index] = device
                }
                subscribers.working = .connected(defaultSink: sink, defaultSource: source, devices: devices)
            }
            return done
        }
    }
}
