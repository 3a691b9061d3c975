import Basics
import Formats
import FoundationEssentials
import Glibc
import Synchronization
import System

/// What a plugin host does with each message its plugin sends, its requests past their deadlines, and its state file.
extension PluginHost {
    /// The time on the daemon's clock.
    var now: Date { clock.withLock { $0 }.now }

    /// Sleeps until `deadline` on the daemon's clock or until `stop()` is called; true when stopped.
    func waitForStop(_ wake: Wakeup, until deadline: Date) -> Bool {
        let clock = self.clock.withLock { $0 }
        while !state.withLock({ $0.stopped }) {
            guard clock.wait(until: deadline, orUntilReadable: wake.fileDescriptor) else { return false }
            _ = wake.drain()
        }
        return true
    }

    /// A reply to request `id`; returns what was wrong with it, if anything.
    func answer(_ id: Int, with bytes: [UInt8]) -> String? {
        guard let pending = takeRequest(answeredBy: id) else {
            return "answered request \(id) late or twice; ignored"
        }
        pending.finish(.success(Data(bytes)))
        return nil
    }

    /// A reply to request `id` longer than `lineCap`, dropped: the request fails at once, saying so, rather than at its
    /// deadline as one never answered. Returns what to log.
    func answerTooLong(_ id: Int) -> String {
        let tooLong = "longer than \(Self.lineCap / 1024) KiB; skipped"
        guard let pending = takeRequest(answeredBy: id) else {
            return "answered request \(id) late or twice with a line \(tooLong)"
        }
        pending.finish(.failure(PluginProtocolError("\(name) replied with a line \(tooLong)")))
        return "replied to request \(id) with a line \(tooLong)"
    }

    /// Takes request `id` off those waiting, for its reply. A reply, even a late one, says the plugin is not hung.
    private func takeRequest(answeredBy id: Int) -> Pending? {
        let now = self.now
        return state.withLock { state in
            state.unansweredInARow = 0
            state.lastReply = now
            return state.pending.removeValue(forKey: id)
        }
    }

    /// A line from the plugin that is not a reply; returns what was wrong with it, if anything.
    func handle(_ message: PluginMessage) -> String? {
        let object: [String: JSONValue]
        switch message {
        case .blank, .reply, .oversized(replyTo: _?): return nil
        case .oversized(replyTo: nil): return "sent a line longer than \(Self.lineCap / 1024) KiB; skipped"
        case .notUTF8(let bytes): return "sent a line that is not UTF-8 (JSON must be): \(LogExcerpt.of(bytes))"
        case .notAnObject(let bytes): return "sent a line that is not a JSON object: \(LogExcerpt.of(bytes))"
        case .push(let pushed): object = pushed
        }
        switch object["type"]?.string {
        case "hello":
            do {
                let declaration = try PluginDeclaration.parse(object)
                // The last error stays: `widgetd plugins` shows why it was restarted.
                state.withLock { $0.hello = declaration }
                if declaration.name != kindName {
                    // Changed since the daemon read its declaration: requests still go to it as kind `kindName`.
                    note("warning", "now declares kind '\(declaration.name)', not '\(kindName)'; restart the daemon")
                }
                writeStatus()
                return nil
            } catch {
                return "sent a bad hello: \(error)"
            }
        case "reload":
            let instances = object["instances"]?.strings
            emit(.reload(kind: kindName, instances: instances?.isEmpty == true ? nil : instances))
            return nil
        case "log":
            let level = object["level"]?.string ?? "info"
            note(
                ["debug", "info", "warning", "error"].contains(level) ? level : "info",
                String((object["message"]?.string ?? "").prefix(500)))
            return nil
        case let type:
            return "sent a message of unknown type '\(type ?? "none")'"
        }
    }

    /// Fails the requests whose deadlines passed; returns how many in a row have gone unanswered.
    func expireRequests() -> Int {
        let now = self.now
        let (expired, inARow) = state.withLock { state in
            let ids = state.pending.filter { $0.value.deadline <= now }.map(\.key)
            let expired = ids.compactMap { state.pending.removeValue(forKey: $0) }.sorted { $0.sent < $1.sent }
            for pending in expired {
                state.unansweredInARow = pending.sent > state.lastReply ? state.unansweredInARow + 1 : 0
            }
            return (expired, state.unansweredInARow)
        }
        for pending in expired {
            pending.finish(.failure(PluginProtocolError("\(name) did not answer in time")))
        }
        return inARow
    }

    // MARK: - Events and status

    func note(_ level: String, _ message: String) {
        emit(.log(kind: kindName, level: level, message: "plugin \(name): \(message)"))
    }

    func emit(_ event: PluginEvent) {
        listener.withLock { $0 }?.handle(event)
    }

    /// The plugin's state as `widgetd plugins` reads it.
    public var status: PluginStatus {
        state.withLock { state in
            PluginStatus(
                name: name, kind: kindName,
                state: state.stopped
                    ? "stopped" : state.pid > 0 ? "running" : state.retryAt != nil ? "crashed" : "idle",
                pid: state.pid > 0 ? Int(state.pid) : nil, version: state.hello?.version, lastError: state.lastError,
                restarts: state.restarts, standardError: state.lastStandardError, argv: argv)
        }
    }

    func writeStatus() {
        guard let directory = statusDirectory.withLock({ $0 }) else { return }
        try? status.write(in: directory)
    }
}
