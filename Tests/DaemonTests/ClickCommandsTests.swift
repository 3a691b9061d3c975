import Control
import Foundation
import Kind
import Testing

@testable import Daemon

/// When a waiting click is answered about the command it started (`ClickCommands`): once the command has run the
/// grace without exiting, on a clock the test moves. The commands here are never started, and never reaped.
@Suite("click commands: a waiting click answered once its command has run a moment")
struct ClickCommandsTests {
    private static let start = Date(timeIntervalSince1970: 2_000_000_000)

    private static func started(_ instance: String, waiting token: String?, at date: Date) -> ClickCommands.Started {
        ClickCommands.Started(
            instance: instance, button: .left, program: "true", token: token.flatMap(ControlCommand.AckToken.init),
            started: date)
    }

    @Test func aWaitingClickIsAnsweredOnceWhenItsCommandHasRunTheGrace() {
        let clock = ManualClock(Self.start)
        var commands = ClickCommands()
        commands.add(1_000_001, Self.started("waited", waiting: "w", at: clock.now))
        commands.add(1_000_002, Self.started("unwaited", waiting: nil, at: clock.now))
        clock.advance(by: 0.25)
        commands.add(1_000_003, Self.started("later", waiting: "l", at: clock.now))
        #expect(commands.nextAnswer == Self.start + ClickCommands.grace, "nobody waits for the unwaited one")
        clock.advance(by: 0.5)
        let beforeTheGrace = commands.takeDueAnswers(now: clock.now)
        #expect(beforeTheGrace.isEmpty)
        clock.advance(by: 0.25)
        let atTheGrace = commands.takeDueAnswers(now: clock.now)
        #expect(atTheGrace.map(\.instance) == ["waited"])
        #expect(commands.nextAnswer == Self.start + 0.25 + ClickCommands.grace)
        clock.advance(by: 0.25)
        let atTheLatersGrace = commands.takeDueAnswers(now: clock.now)
        #expect(atTheLatersGrace.map(\.instance) == ["later"])
        #expect(commands.nextAnswer == nil)
        clock.advance(by: 60)
        let muchLater = commands.takeDueAnswers(now: clock.now)
        #expect(muchLater.isEmpty, "each is answered once")
        #expect(commands.count == 3, "answered, they still run until they are reaped")
    }
}
