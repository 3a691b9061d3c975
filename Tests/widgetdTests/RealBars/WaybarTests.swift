import Foundation
import Testing

/// The real waybar and swaybar under a headless sway (`HeadlessSway`): waybar with the shipped
/// `contrib/waybar/config.jsonc` and `style.css`, swaybar with `contrib/sway/config` (`widgetd bar`). The motivation is
/// on the screen and readable, and a click stars it; a click ticks a to-do off, dimmed in its place, and a second
/// click opens it again.
@Suite("real bars: waybar and swaybar under sway", .spawnsDaemons)
struct WaybarTests {
    static let moduleBackground = Screenshot.RGB("#2b303b")
    static let favorite = Screenshot.RGB("#f1c40f")
    static let strip = Screenshot.Region(minX: 0, minY: 0, maxX: 799, maxY: 40)
    /// The font both bars draw with: contrib/sway/config names it, and waybar's GTK default (`sans-serif`) is it.
    static let font = "DejaVu Sans"
    /// The contrib waybar config's widgets: one to-do per module, as waybar does not say where a click landed.
    static let waybarWidgets =
        "widgets:\n  motivation:\n    kind: motivations\n  todos:\n    kind: todos\n  clock:\n"
        + "    kind: clock\n    intent:\n      format: \"%Y\"\n"
        + (1...3).map { "  todo_\($0):\n    kind: todos\n    intent:\n      item: \($0)\n" }.joined()

    /// The modules of waybar's right side, left to right: runs of columns with the modules' own dark background.
    static func modules(in shot: Screenshot) -> [Screenshot.Region] {
        var modules: [Screenshot.Region] = []
        var current: Screenshot.Region?
        for x in 0..<shot.width {
            let column = Screenshot.Region(minX: x, minY: strip.minY, maxX: x, maxY: strip.maxY)
            if let hit = shot.bounds(of: moduleBackground, tolerance: 6, within: column) {
                if var run = current {
                    run.maxX = x
                    run.minY = min(run.minY, hit.minY)
                    run.maxY = max(run.maxY, hit.maxY)
                    current = run
                } else {
                    current = hit
                }
            } else if let run = current {
                modules.append(run)
                current = nil
            }
        }
        if let run = current { modules.append(run) }
        return modules.filter { $0.width > 8 }
    }

    /// Pixels of `region` within 60 of `color`.
    static func countNear(_ color: Screenshot.RGB, in shot: Screenshot, _ region: Screenshot.Region) -> Int {
        var count = 0
        for y in region.minY...min(region.maxY, shot.height - 1) {
            for x in region.minX...min(region.maxX, shot.width - 1) where shot.pixel(x, y).distance(to: color) < 60 {
                count += 1
            }
        }
        return count
    }

    @Test func waybarWithTheContribModuleShowsTheMotivationReadablyAndAClickStarsIt() async throws {
        _ = try requireExecutable("waybar", package: "waybar")
        let sway = try HeadlessSway(widgets: Self.waybarWidgets)
        try sway.cli(["motivations", "add", "No zero days."])
        for title in ["Alpha", "Beta"] { try sway.cli(["todos", "add", title]) }
        #expect(
            await waitFor("the motivation") { sway.read("motivation.plain") == "☆ No zero days.\n" },
            "\(sway.daemon.log)"
        )
        let contrib = packageRoot.path + "/contrib/waybar"
        try await sway.start("exec waybar -c \(contrib)/config.jsonc -s \(contrib)/style.css\n")
        var modules: [Screenshot.Region] = []
        var shot: Screenshot?
        #expect(
            try await waitFor("waybar's four widgetd modules (todo-3 has no to-do and hides)", timeout: .seconds(30)) {
                shot = try sway.screenshot()
                modules = shot.map(Self.modules) ?? []
                return modules.count == 4
            }, "sway and waybar:\n\(sway.log)")
        let motivation = try #require(modules.first)
        let first = try #require(shot)
        // White text on the module's own dark background, whatever the bar's.
        #expect(
            first.count(differingFrom: Self.moduleBackground, by: 150, in: motivation) > 40,
            "motivation at \(motivation)")
        #expect(try FontCoverage.missing(in: Self.font) == [])

        try sway.click(x: motivation.midX, y: motivation.midY)
        #expect(await waitFor("the star") { sway.read("motivation.plain") == "★ No zero days.\n" }, "\(sway.log)")
        // The favourite's yellow text and underline, and the module as high as before (no border that pushes).
        var starred: Screenshot?
        #expect(
            try await waitFor("the starred motivation on screen") {
                starred = try sway.screenshot()
                return starred.map { Self.countNear(Self.favorite, in: $0, Self.strip) > 20 } == true
            })
        let after = try #require(starred.map(Self.modules)?.first)
        #expect(after.minY == motivation.minY, "the module moved: \(motivation) → \(after)")

        // todo-1's module: a click ticks Alpha off, dimmed in its place; a second opens it again.
        let item = try #require(starred.map(Self.modules).flatMap { $0.count > 1 ? $0[1] : nil })
        try sway.click(x: item.midX, y: item.midY)
        #expect(await waitFor("Alpha ticked off") { sway.read("todo_1.plain") == "◉ Alpha\n" }, "\(sway.log)")
        let starredShot = try #require(starred)
        let ticked = try #require(
            try await waitForChange("Alpha drawn ticked", from: starredShot, in: item, take: sway.screenshot))
        // Inside the module's rounded corners, where the bar's own background shows.
        let text = item.inset(by: 4)
        let (open, done) = (starredShot.peakBrightness(in: text), ticked.peakBrightness(in: text))
        #expect(done + 40 < open, "Alpha's brightest pixel: \(open) open, \(done) done")
        try sway.click(x: item.midX, y: item.midY)
        #expect(await waitFor("Alpha open again") { sway.read("todo_1.plain") == "○ Alpha\n" }, "\(sway.log)")
        #expect(try await waitForChange("Alpha drawn open", from: ticked, in: item, take: sway.screenshot) != nil)

        // waybar killed outright (no chance to stop its modules): its five followers (one per module) notice and exit.
        let followers = sway.processes(with: ["show", "--follow"])
        #expect(followers.count == 5, "followers: \(followers)")
        for waybar in sway.processes(with: ["waybar"]) { kill(waybar, SIGKILL) }
        #expect(
            await waitFor("no follower left") { sway.processes(with: ["show", "--follow"]).isEmpty },
            "left: \(sway.processes(with: ["show", "--follow"]))")
    }

    @Test func swaybarWithWidgetdBarShowsTheMotivationOnItsBackgroundAndClicksByPosition() async throws {
        _ = try requireExecutable("swaybar", package: "sway")
        let sway = try HeadlessSway(widgets: I3barTests.config)
        try sway.cli(["motivations", "add", "No zero days."])
        for title in ["Alpha", "Beta"] { try sway.cli(["todos", "add", title]) }
        #expect(await waitFor("two to-dos") { sway.read("todos.plain") == "○ Alpha  ○ Beta\n" }, "\(sway.daemon.log)")
        // contrib/sway/config as it ships: `status_command exec widgetd bar --bar main`.
        try await sway.start("include \(packageRoot.path)/contrib/sway/config\n")
        var blocks: (todos: Screenshot.Region?, motivation: Screenshot.Region?) = (nil, nil)
        var shot: Screenshot?
        #expect(
            try await waitFor("both blocks on swaybar", timeout: .seconds(30)) {
                shot = try sway.screenshot()
                blocks = shot.map(I3barTests.blocks) ?? (nil, nil)
                return blocks.motivation.map { $0.width > 40 } == true && blocks.todos.map { $0.width > 40 } == true
            }, "sway:\n\(sway.log)")
        let box = try #require(blocks.motivation)
        let frame = try #require(blocks.todos)
        let first = try #require(shot)
        #expect(first.count(differingFrom: I3barTests.grey, by: 150, in: box.inset(by: 2)) > 40, "motivation at \(box)")
        #expect(
            first.count(differingFrom: I3barTests.black, by: 150, in: frame.inset(by: 2)) > 40, "to-dos at \(frame)")
        #expect(try FontCoverage.missing(in: Self.font) == [])
        try sway.click(x: box.midX, y: box.midY)
        #expect(await waitFor("the star") { sway.read("motivation.plain") == "★ No zero days.\n" }, "\(sway.log)")
        let starred = try #require(
            try await waitForChange("the star drawn filled", from: first, in: box, take: sway.screenshot))
        try sway.click(x: frame.maxX - 12, y: frame.midY)
        #expect(
            await waitFor("Beta ticked off") { sway.read("todos.plain") == "○ Alpha  ◉ Beta\n" },
            "\(sway.read("todos.plain") ?? "")")
        let ticked = try #require(
            try await waitForChange("Beta drawn ticked", from: starred, in: frame, take: sway.screenshot))
        I3barTests.expectBetaDimmed(in: ticked, frame: frame)
        // Beta kept its place: a second click at the same spot opens it again.
        try sway.click(x: frame.maxX - 12, y: frame.midY)
        #expect(
            await waitFor("Beta open again") { sway.read("todos.plain") == "○ Alpha  ○ Beta\n" },
            "\(sway.read("todos.plain") ?? "")")
        #expect(try await waitForChange("Beta drawn open", from: ticked, in: frame, take: sway.screenshot) != nil)
    }
}
