import Foundation
import TestSupport
import Testing

/// Issue 37, item 2: with widgets.yaml saved with a YAML mistake, the commands that name widgets answer with what the
/// daemon runs, not with the file, run in this process against the driven daemon. The bars' clicks meanwhile stay in
/// widgetdTests' `BrokenConfigClickTests`: they go through a shell, the bars' configs and `widgetd bar`.
@Suite("Commands while widgets.yaml is broken, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenBrokenConfigCommandTests {
    /// `list` and `generate names` (which the shell completions run) showed the file's widgets: with its YAML broken,
    /// `list` fell back to the records in name order, and the completions offered nothing.
    @Test func listAndTheCompletionsNamesAreWhatTheDaemonRuns() throws {
        let config = "widgets:\n  zeta:\n    kind: quotes\n  alpha:\n    kind: quotes\n"
        let driven = try DrivenDaemon(config: config)
        #expect(driven.turns(until: "both timelines") { driven.hasTimeline("zeta") && driven.hasTimeline("alpha") })
        try driven.editConfig(config + "  broken: [unclosed, flow\n")
        #expect(driven.turns(until: "the edit refused") { driven.log.contains("keeping the running configuration") })

        let names = driven.command(["generate", "names"])
        #expect(names.status == 0, "\(names.stderr)")
        #expect(names.stdout == "zeta\nalpha\n")
        let list = driven.command(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        // The config's order, as the daemon runs it, and a word that the file has errors.
        #expect(
            list.stdout.split(separator: "\n").dropFirst().map { line in line.prefix { $0 != " " } } == [
                "zeta", "alpha",
            ])
        #expect(list.stderr.contains("running an older config; \(driven.configPath) has 1 error"), "\(list.stderr)")
    }
}
