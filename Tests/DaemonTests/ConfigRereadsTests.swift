import Control
import Testing
import Timelines

@testable import Daemon

/// `config` lines in a row are one re-read of widgets.yaml (`ConfigRereads`), as the loop reads a FIFO full of them;
/// no daemon, FIFO or config file.
@Suite("config lines in a row: one re-read, before the next line")
struct ConfigRereadsTests {
    private static let reloadSecond: [DaemonRequest] = [
        .reload(.instance("second"), acknowledgement: nil, line: "reload second")
    ]

    @Test func configLinesInARowAreOneRereadThatAnswersEachAndComesBeforeTheNextLine() throws {
        var rereads = ConfigRereads()
        let none = rereads.takeReread()
        #expect(none == nil, "nothing held, nothing to re-read")
        let tokens = try (0..<3).map { try #require(ControlCommand.AckToken("config\($0)")) }
        var held = 0
        for index in 0..<500
        where rereads.hold([.reloadConfiguration(acknowledgement: index < 3 ? tokens[index] : nil)]) {
            held += 1
        }
        #expect(held == 500)
        // The line after the run is not held: it waits for the re-read, so it is decided against the new config.
        let heldTheReload = rereads.hold(Self.reloadSecond)
        #expect(!heldTheReload)
        #expect(rereads.isHolding)
        let answered = rereads.takeReread()
        #expect(answered == tokens, "one re-read answers every config line that asked")
        #expect(!rereads.isHolding)
        let again = rereads.takeReread()
        #expect(again == nil, "and is made once")
    }

    @Test func aLineOfOtherRequestsHoldsNothing() throws {
        var rereads = ConfigRereads()
        let heldTheReload = rereads.hold(Self.reloadSecond)
        #expect(!heldTheReload)
        #expect(!rereads.isHolding)
        let none = rereads.takeReread()
        #expect(none == nil)
        // A run that starts after it is held on its own.
        let heldConfig = rereads.hold([.reloadConfiguration(acknowledgement: nil)])
        #expect(heldConfig)
        let answered = rereads.takeReread()
        #expect(answered == [])
    }
}
