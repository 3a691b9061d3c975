import Control
import Formats
import FoundationEssentials
import Glibc
import Output
import Providers
import Timelines

/// What the daemon does with the engine's answers: writes entries and records, hands reloads to the provider
/// threads, and keeps the status files, the kept records and the acknowledgements.
extension Daemon {

    /// Writes changed entries in every configured format, starts reloads, writes changed records, and reports the calls
    /// the engine gave up on, in that order: at start-up every placeholder is painted before 10,000 provider calls
    /// compete with the loop for the CPU. `painting`: the actions put up widgets new to this run (the start-up's, a
    /// config's new widgets), whose bar files are mostly first writes.
    func perform(_ actions: [EngineAction], painting: Bool = false) {
        let now = clock.now
        // The output directory is checked once for the whole second boundary, not once per file.
        writingBarFiles {
            var wroteBarFiles = false
            // A start-up's paint: new files are made on two threads (`OutputWriter.writeAll`), a chunk at a time so
            // that the rendered bytes of 10,000 widgets are never all held at once. Not for a second boundary of 1,000
            // clocks, whose files are all rewrites: writing them one by one costs less, and is done straight from the
            // actions, with no array of them made first (docs/PERFORMANCE.md, "Swap cost").
            guard painting, actions.count(where: \.isShow) >= Self.showsPaintedTogether else {
                for case .show(let name, let content) in actions {
                    log(.debug, "\(name): shows '\(content.text)'")
                    barLines.widgetChanged(name)
                    if write(name, content: content, now: now) { wroteBarFiles = true }
                }
                return wroteBarFiles
            }
            var shows: [(name: String, content: EntryContent)] = []
            shows.reserveCapacity(actions.count)
            for case .show(let name, let content) in actions {
                log(.debug, "\(name): shows '\(content.text)'")
                barLines.widgetChanged(name)
                shows.append((name, content))
            }
            for start in stride(from: 0, to: shows.count, by: Self.showsPaintedTogether) {
                let chunk = shows[start..<min(start + Self.showsPaintedTogether, shows.count)]
                if writeTogether(chunk, now: now) { wroteBarFiles = true }
            }
            return wroteBarFiles
        }
        for case .reload(let name, let token) in actions {
            // The instance is borrowed, not copied: at start-up this runs for every widget. A persistent one has no
            // lane.
            switch engine.withInstance(
                named: name, { ReloadDispatcher.lane(of: $0, kind: registry.kind(named: $0.kind)) })
            {
            case .some(.some(let lane)):
                reloads.queue(name, token: token, lane: lane)
            case .some(.none):
                if let instance = engine.instance(named: name) { reloadPersistent(instance, token: token) }
            case .none:
                reloads.queue(name, token: token, lane: .shared)
            }
        }
        startWaitingReloads()
        for case .recordChanged(let name) in actions {
            writeRecord(of: name)
        }
        for case .failed(let name, let token, let reason) in actions {
            // The provider call is still running somewhere; its late answer will be ignored.
            log(.warning, from: name, "\(name): \(reason)")
            for done in reloads.reloadFinished(instance: name, token: token, failure: "\(name): \(reason)") {
                acknowledge(done.token, failure: done.failure, widgets: done.widgets)
            }
        }
    }

    /// Runs `body`'s writes of bar files as one batch of the output writer (`inOneBatch`: the directory checked once)
    /// and, when `body` says it wrote a file, lets those files' readers run before the daemon's own work
    /// (`letReadersRun`).
    func writingBarFiles(_ body: () -> Bool) {
        var wrote = false
        outputs.inOneBatch { wrote = body() }
        if wrote { readersWaiting = true }
    }

    /// Writes the instance's record (`<name>.json`): its timeline, fallback and failure. A failed write is tried
    /// again later (`OutputRetry`). A widget whose kind reloads it on a rule (a sampled kind's interval) has its record
    /// written only while someone follows it on the updates socket (`Daemon+Updates`), and is else marked behind, to
    /// be written when someone does (or the daemon stops): a bar that only shows it costs no record per sample. Such a
    /// record is also kept when a sample read the same value: only the next reload's date would change, and `list`
    /// takes that from the rule (`WidgetKind.nextScheduledReload`). `evenUnfollowed`: written whoever follows it.
    func writeRecord(of name: String, evenUnfollowed: Bool = false) {
        guard let onARule = reloadsOnARule(name) else { return }
        if onARule, !evenUnfollowed, !updateSubscribers.isFollowed(name) {
            recordsBehind.insert(name)
            // Not wanted until someone follows it: a write of it that failed is no failure meanwhile.
            outputRetry.succeeded(name, .record)
            return
        }
        recordsBehind.remove(name)
        guard let record = engine.record(of: name) else { return }
        if onARule, outputs.holdsSameView(as: record) { return }
        letReadersRun()
        do {
            try outputs.writeRecord(record, remembersView: onARule)
            outputRetry.succeeded(name, .record)
            updateSubscribers.recordWritten(name)
        } catch {
            if outputRetry.failure(of: name) == nil { log(.error, "\(name): cannot write its record: \(error)") }
            outputRetry.failed(name, .record, reason: "\(name): cannot write its record: \(error)", now: clock.now)
        }
    }

    /// Whether `name`'s kind says when its reloads come by a rule of its own (`WidgetKind.nextScheduledReload`); nil
    /// when there is no such widget.
    private func reloadsOnARule(_ name: String) -> Bool? {
        engine.withInstance(named: name) { instance in
            registry.kind(named: instance.kind)?.nextScheduledReload(after: clock.now, settings: instance.settings)
                != nil
        }
    }

    /// Hands waiting reloads to the provider threads while slots are free (`ReloadDispatcher.startWaiting` decides
    /// which, and when their timeouts start).
    func startWaitingReloads() {
        holdStoreWhileReloadsWait()
        reloads.startWaiting(in: &engine, before: letReadersRun) { reload, instance, current, now in
            log(.debug, "\(reload.instance): asking \(instance.kind) for a timeline")
            let answeredAtOnce = runner.start(instance, token: reload.token, now: now, current: current)
            return answeredAtOnce ? .answeredAtOnce : .running
        }
        holdStoreWhileReloadsWait()
    }

    /// Writes the instance's bar files; its record is written separately, only when it changes. A failed write is
    /// tried again later (`OutputRetry`), and logged once until it works again.
    /// - Returns: whether a file was written (an unchanged entry is skipped).
    @discardableResult
    func write(_ name: String, content: EntryContent, now: Date) -> Bool {
        guard let (family, formats) = engine.withInstance(named: name, { ($0.family, $0.outputs) }) else {
            return false
        }
        var wrote = false
        do {
            for format in formats {
                let written = try outputs.write(
                    instance: name, format: format,
                    bytes: Renderer.renderedBytes(content, family: family, format: format, instance: name))
                wrote = wrote || written
            }
            noteEntryWrite(of: name, failure: nil, now: now)
        } catch {
            noteEntryWrite(of: name, failure: error, now: now)
        }
        return wrote
    }

    /// Tells `outputRetry` how an instance's bar files fared; a failure is logged once until they are written again.
    func noteEntryWrite(of name: String, failure: OutputError?, now: Date) {
        guard let failure else {
            outputRetry.succeeded(name, .entry)
            return
        }
        if outputRetry.failure(of: name) == nil { log(.error, "\(name): cannot write its entry: \(failure)") }
        outputRetry.failed(name, .entry, reason: "\(name): cannot write its entry: \(failure)", now: now)
    }

    /// How many widgets' bar files are written together (`writeTogether`) when a paint shows at least that many.
    static let showsPaintedTogether = 512

    /// Writes the bar files of many instances as `write(_:content:now:)` does each, in one `OutputWriter.writeAll`.
    func writeTogether(_ shows: ArraySlice<(name: String, content: EntryContent)>, now: Date) -> Bool {
        var files: [OutputWriter.FileWrite] = []
        var owners: [String] = []
        var names: [String] = []
        for (name, content) in shows {
            guard let (family, formats) = engine.withInstance(named: name, { ($0.family, $0.outputs) }) else {
                continue
            }
            names.append(name)
            for format in formats {
                files.append(
                    .init(
                        instance: name, format: format,
                        bytes: Renderer.renderedBytes(content, family: family, format: format, instance: name)))
                owners.append(name)
            }
        }
        let errors = outputs.writeAll(files)
        var failures: [String: OutputError] = [:]
        for (owner, error) in zip(owners, errors) {
            if let error, failures[owner] == nil { failures[owner] = error }
        }
        for name in names { noteEntryWrite(of: name, failure: failures[name], now: now) }
        return failures.count < names.count
    }

    /// Bar files were renamed into place (`readersWaiting`), waking their readers (a bar watching them with inotify,
    /// a status line's `cat`), often on this CPU. The records, status files and kept entries that follow would make
    /// them wait: a reader woken on the daemon's CPU reads its file only after them, one woken on the other CPU at
    /// once. So before its own work (a record, a status file, a kept entry,
    /// an acknowledgement, a provider call), once per turn of the loop, the daemon gives the CPU up for them
    /// (`sched_yield`; at once when nothing else is waiting). A turn that only swapped entries goes back to sleep,
    /// which lets them run without the call.
    func letReadersRun() {
        guard readersWaiting, !readersHadTheirTurn else { return }
        readersWaiting = false
        readersHadTheirTurn = true
        sched_yield()
    }

    /// Tries the failed writes again, with the entries and records as they are now.
    func retryOutputs(now: Date) {
        let failing = outputRetry.take(now: now)
        for (name, part) in failing {
            guard engine.instance(named: name) != nil else {
                outputRetry.forget(name)
                continue
            }
            switch part {
            case .entry:
                if let content = engine.content(of: name, at: now) { write(name, content: content, now: now) }
            case .record:
                writeRecord(of: name)
            }
        }
        if !failing.isEmpty, outputRetry.isEmpty { log(.info, "the output files are written again") }
    }

    /// Keeps the instance's record for the next run (`StateFiles`); with `unlessKept`, not when the kept file already
    /// holds the same (at a stop). Not for a kind whose entries are not kept (`keepsEntryAcrossRestarts`).
    func remember(_ name: String, unlessKept: Bool = false) {
        // The kind first: a sampled widget's entry is not kept, and its record is not made at each sample to find that.
        guard let kind = engine.withInstance(named: name, { $0.kind }),
            registry.kind(named: kind)?.keepsEntryAcrossRestarts != false, let record = engine.record(of: name)
        else { return }
        letReadersRun()
        stateFiles.keep(record, now: clock.now, unlessKept: unlessKept)
    }

    /// Writes the instance's status file for `list` (`StateFiles`).
    func writeStatus(of name: String, now: Date) {
        guard let status = engine.status(of: name, now: now) else { return }
        letReadersRun()
        stateFiles.write(status, of: name, now: now)
    }

    /// Tells a waiting CLI its request is done, and which widgets it wrote (their text is what `--wait` prints); with
    /// `failure`, why it did not work (the CLI then exits 1).
    func acknowledge(_ token: ControlCommand.AckToken, failure: String? = nil, widgets: [String] = []) {
        letReadersRun()
        stateFiles.acknowledge(token, failure: failure, widgets: widgets, now: clock.now)
    }
}
