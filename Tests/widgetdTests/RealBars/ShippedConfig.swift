import Foundation
import Testing

/// The shipped example config, `config/widgets.yaml` (what the README's quick start runs), with what a new user has
/// after a few commands: the README's screenshots show it on each bar. The daemon runs the file's text unchanged; only
/// its directories (the output directory under `XDG_RUNTIME_DIR`, the store under `XDG_DATA_HOME`) are the test's.
enum ShippedConfig {
    static var text: String {
        get throws { try String(contentsOf: packageRoot.appending(path: "config/widgets.yaml"), encoding: .utf8) }
    }

    static let motivation = "No zero days."
    static let todos = ["Buy milk", "Call mom", "Pay rent"]
    /// The list once the first to-do is ticked (it keeps its place, marked ◉): the first line of the i3blocks file,
    /// one of the formats the shipped widgets write.
    static let tickedList = "◉ Buy milk  ○ Call mom  ○ Pay rent\n"

    /// Adds the motivation and the to-dos through `cli` (the widgetd CLI with the daemon's environment), stars the
    /// motivation and ticks the first to-do as clicks would, and waits until the daemon's files (`read`) show both.
    /// The clicks wait for the daemon's first files: a click with `--wait` fails at once while no daemon reads the
    /// FIFO, and the daemon was only just started.
    static func fill(
        cli: ([String]) async throws -> ProcessResult, read: (String) -> String?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        func run(_ steps: [[String]]) async throws {
            for step in steps {
                let result = try await cli(step)
                #expect(result.status == 0, "widgetd \(step): \(result.stderr)", sourceLocation: sourceLocation)
            }
        }
        try await run([["motivations", "add", motivation]] + todos.map { ["todos", "add", $0] })
        #expect(
            await waitFor("the daemon's first files", sourceLocation: sourceLocation) {
                read("motivation.i3blocks") != nil && read("todos.i3blocks") != nil
            }, sourceLocation: sourceLocation)
        try await run([["click", "motivation", "--wait"], ["click", "todo_1", "--wait"]])
        #expect(
            await waitFor("the star and the ticked to-do", sourceLocation: sourceLocation) {
                read("todos.i3blocks")?.hasPrefix(tickedList) == true
                    && read("motivation.i3blocks")?.hasPrefix("★ " + motivation) == true
            }, "todos: \(read("todos.i3blocks") ?? "none"); motivation: \(read("motivation.i3blocks") ?? "none")",
            sourceLocation: sourceLocation)
    }

    /// The environment a bar runs `widgetd` in: on its `PATH`, with the daemon's directories and config.
    static func barEnvironment(_ daemon: [String: String], config: String, display: [String: String]) -> [String:
        String]
    {
        daemon.merging(display) { $1 }.merging([
            "PATH": widgetdBinary.deletingLastPathComponent().path + ":/usr/bin:/bin", "LANG": "C.UTF-8",
            "WIDGETD_CONFIG": config,
        ]) { $1 }
    }
}

/// Takes screenshots until `area` shows the same picture twice in a row with ink (pixels more than 100 from
/// `background`) in at least `columns` of its columns: the bar has drawn its blocks and stopped changing. The last
/// screenshot, or nil at the timeout.
func waitForSettledStrip(
    _ what: String, in area: Screenshot.Region, background: Screenshot.RGB, columns: Int,
    timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
    take: () throws -> Screenshot
) async throws -> Screenshot? {
    var last: Screenshot?
    let found = try await waitFor(what, timeout: timeout, sourceLocation: sourceLocation) {
        let shot = try take()
        defer { last = shot }
        guard let previous = last, shot.changedPixels(from: previous, in: area) == 0 else { return false }
        // The bar's own surface shows, in its background colour, around what it draws: a compositor's empty output
        // (sway's grey, before waybar maps its surface) differs from a light background in every column.
        let clipped = Screenshot.Region(
            minX: max(area.minX, 0), minY: max(area.minY, 0), maxX: min(area.maxX, shot.width - 1),
            maxY: min(area.maxY, shot.height - 1))
        let pixels = (clipped.maxX - clipped.minX + 1) * (clipped.maxY - clipped.minY + 1)
        guard pixels - shot.count(differingFrom: background, by: 100, in: clipped) >= pixels / 4 else { return false }
        return shot.inkColumns(differingFrom: background, in: area) >= columns
    }
    return found ? last : nil
}

extension Screenshot {
    /// How many columns of `area` hold a pixel more than 100 from `background`: how much of a strip has text on it.
    func inkColumns(differingFrom background: RGB, in area: Region) -> Int {
        (max(area.minX, 0)...min(area.maxX, width - 1)).filter { x in
            count(differingFrom: background, by: 100, in: Region(minX: x, minY: area.minY, maxX: x, maxY: area.maxY))
                > 0
        }.count
    }
}
