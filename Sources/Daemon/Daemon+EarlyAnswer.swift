import FoundationEssentials
import Timelines

/// A `reload NAME` line for a widget whose kind answers at once, in memory (quotes, a clock): its bar files are
/// written as the line is read, before the engine's bookkeeping for the reload.
///
/// That bookkeeping (the request, `advance`, the reload's start, the answer taken in by `completed`, the reschedule)
/// runs cold after 10 ms asleep, and what a cold reload pays follows the code and data it touches before the rename,
/// not its instruction count: written first, a reload's file lands sooner (docs/PERFORMANCE.md, "Reload latency"). The
/// engine still does all of it, with the same answer: the timeline written early is kept in `earlyAnswers` and handed
/// to the reload the engine starts for the widget in this turn, so the kind is asked once, and the engine's own write
/// of it finds the files unchanged. What the widget shows is worked out by the engine's own rule
/// (`Engine.content(of:answering:at:)`), so the early files are the ones the engine would write.
///
/// Only when nothing of the widget is in flight (the engine would then start the reload at once) and its kind
/// answers without failing; anything else (a command, the store, a failure, `reload all`) takes the usual path.
extension Daemon {
    func writeEarlyAnswer(of name: String, now: Date) {
        guard
            let answer = engine.withIdleInstance(
                named: name, at: now, { runner.answerAtOnce($0, now: now, current: $1) }),
            let timeline = answer,
            let content = engine.content(of: name, answering: timeline, at: now)
        else { return }
        earlyAnswers[name] = timeline
        // The readers of the new files get the CPU before the bookkeeping.
        writingBarFiles(now: now) { write(name, content: content, now: now) }
    }

    /// Drops the early answers no reload took this turn (the reload queue was full), and those a config reload made
    /// stale: the engine asks the kind itself when the reload starts, and rewrites the files only if the answer
    /// differs.
    func forgetEarlyAnswers() {
        if !earlyAnswers.isEmpty { earlyAnswers.removeAll() }
    }
}
