import Basics
import FoundationEssentials
import System

/// After start-up, and after each config reload, the daemon hands back the code and constants it mapped only to get
/// there (`WorkingSet.trim`; docs/PERFORMANCE.md, "Idle RSS"). It waits until every widget has answered once (a
/// timeline or a failure), then `workingSetSettleDelay` more for start-up's follow-ups (the check of the runtime
/// directory its own first writes set off, `DirectoryGuard.repairDelay` later), and trims just before the loop sleeps:
/// what the loop runs from then on is what faults back in. Checked before each sleep: a flag, a counter and a date,
/// nothing scanned per wake-up.
extension Daemon {
    static let workingSetSettleDelay: TimeInterval = 0.5

    func trimWorkingSetWhenDue(now: Date) {
        if workingSetTrimPending, engine.unansweredInstances == 0 {
            workingSetTrimPending = false
            workingSetTrimDue = now.addingTimeInterval(Self.workingSetSettleDelay)
        }
        guard let due = workingSetTrimDue, due <= now else { return }
        workingSetTrimDue = nil
        // The heap first: what start-up freed goes back to the kernel before the mappings are looked at.
        FreedMemory.giveBack()
        log(.debug, "every widget has answered: handing back start-up's mapped files")
        WorkingSet.trim()
    }
}
