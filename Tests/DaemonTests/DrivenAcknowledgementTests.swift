import Foundation
import Providers
import TestSupport
import Testing

@testable import Daemon

/// What a request's acknowledgement says when what it waited for cannot happen: the whole daemon in this process, on
/// a clock the test moves (`DrivenDaemon`); the rule alone is `ReloadDispatcherTests`'.
@Suite("the daemon on a driven clock: acknowledgements", .waitsOnThreadsOfItsOwn)
struct DrivenAcknowledgementTests {
    @Test func aWaitForAWidgetThatAnEditRemovesIsAnsweredWithWhy() throws {
        let held = HeldKind()
        defer { held.release() }
        let driven = try DrivenDaemon(
            config: "widgets:\n  quote:\n    kind: quotes\n  slow:\n    kind: held\n",
            kinds: [QuotesKind(), held])
        #expect(driven.turns(until: "the quote") { driven.read("quote.plain") != nil })
        // `slow` is still in its first reload, so this waits for the one after it, which the edit below cancels.
        #expect(driven.writeToFIFO("reload slow ack=waiting\n"))
        #expect(driven.turns(until: "the request") { driven.log.contains("reload requested: slow (ack ") })
        #expect(driven.acknowledgement("waiting") == nil)
        try driven.editConfig("widgets:\n  quote:\n    kind: quotes\n")
        #expect(driven.turns(until: "the answer") { driven.acknowledgement("waiting") != nil }, "\(driven.log)")
        // Answered, as a request that could not be done (`reload --wait` exits 1 with it).
        #expect(driven.acknowledgement("waiting") == "'slow' was removed from the configuration\n")
    }
}
