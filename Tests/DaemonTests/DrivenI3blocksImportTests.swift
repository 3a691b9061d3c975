import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// `widgetd import i3blocks`'s result run by the daemon in the test's process (`DrivenDaemon`), the import and `check`
/// run in this process too: every section's feature shown, a renamed section's block name kept, and the new i3blocks
/// config's click section passing the pointer's place. Debian's real i3blocks on the old and the new config stays in
/// widgetdTests' `I3blocksMigrationTests`.
@Suite("an imported i3blocks config, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenI3blocksImportTests {
    /// The environment a command run by hand gets here: no home, no daemon.
    static let environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home", "LANG": "C.UTF-8"]

    static func run(_ arguments: [String]) -> CommandOutcome {
        DrivenDaemon.commandWithoutDaemon(arguments, environment: environment)
    }

    @Test func importTranslatesEverySectionAndTheResultRuns() throws {
        let directory = try I3blocksSample.workspace()
        defer { directory.remove() }
        let configPath = directory.url.path + "/i3blocks.config"
        let barPath = directory.url.path + "/new-i3blocks.conf"
        let imported = Self.run(["import", "i3blocks", configPath, "--i3blocks-config", barPath])
        #expect(imported.status == 0, "\(imported.stderr)")
        let yaml = imported.stdout
        #expect(yaml.contains("  cpu:\n    kind: exec\n    command: [sh, -c, \"cd '\(directory.url.path)' && ./cpu\"]"))
        #expect(yaml.contains("    interval: 5s"))
        #expect(yaml.contains("      label: \"CPU\""))
        #expect(yaml.contains("      T_WARN: \"80\""))
        #expect(yaml.contains("      separator_block_width: \"12\""))
        #expect(yaml.contains("      color: \"#00ff00\""))
        #expect(yaml.contains("      instance: \"eth0\""))
        #expect(yaml.contains("      markup: \"pango\""))
        #expect(
            yaml.contains(
                "  ticker:\n    kind: exec\n    command: [sh, -c, \"cd '\(directory.url.path)' && ./ticker\"]\n    interval: persist"
            ))
        #expect(yaml.contains("    signal: 10"))
        #expect(yaml.contains("      separator: false"))
        #expect(yaml.contains("  # border=#ff0000 is not translated: widgetd's i3bar output has no border"))
        #expect(yaml.contains("  # section [hello world] is widget 'hello_world'"))
        let bar = try String(contentsOfFile: barPath, encoding: .utf8)
        for name in ["cpu", "iface", "units", "ticker", "volume", "hello_world"] {
            #expect(
                bar.contains(
                    "[widgetd]\ninstance=\(name)\ninterval=persist\nformat=json\ncommand=exec widgetd show \(name) --format i3bar --follow"
                ))
            #expect(
                bar.contains(
                    "command=case $BLOCK_BUTTON in [1-5]) exec widgetd click \(name) --button $BLOCK_BUTTON"
                        + " ${BLOCK_X:+--screen-x $BLOCK_X} ${BLOCK_Y:+--screen-y $BLOCK_Y};; esac"))
        }

        // Checked, then run.
        let yamlPath = try directory.write("widgets.yaml", yaml)
        let check = Self.run(["check", "--config", yamlPath])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let driven = try DrivenDaemon(config: yaml, in: directory)
        #expect(
            driven.turns(until: "every widget") {
                ["cpu", "iface", "units", "ticker", "volume", "hello_world"].allSatisfy(driven.hasTimeline)
            }, "\(driven.log)")
        #expect(driven.read("cpu.i3bar")?.hasPrefix(#"{"full_text":"CPU 42% 80","urgent":false"#) == true)
        #expect(driven.read("cpu.i3bar")?.contains(#""separator_block_width":12"#) == true)
        #expect(driven.read("iface.i3bar")?.hasPrefix(##"{"full_text":"eth0 up","color":"#00ff00""##) == true)
        #expect(driven.read("units.i3bar")?.contains(#""markup":"pango""#) == true)
        #expect(
            driven.turns(until: "the persistent ticker") {
                driven.read("ticker.i3bar")?.hasPrefix(#"{"full_text":"tick 1""#) == true
            })
        #expect(driven.read("volume.i3bar")?.contains(#""separator":false"#) == true)
        #expect(driven.read("hello_world.i3bar")?.hasPrefix(#"{"full_text":"static text""#) == true)
        // The signal as the loop's signalfd hands it over.
        driven.daemon.handleSignals([__libc_current_sigrtmin() + 10])
        #expect(
            driven.turns(until: "the signal's reload") {
                driven.read("volume.i3bar")?.hasPrefix(#"{"full_text":"vol 2""#) == true
            }, "\(driven.log)")
    }

    /// The classic layout: one global `command=scripts/$BLOCK_NAME` and a section per script, the same script twice
    /// with two instances. The second `[volume]` becomes widget `volume_2`, and its command still sees
    /// BLOCK_NAME=volume, so it finds its script.
    @Test func aRenamedSectionKeepsItsBlockName() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(
            atPath: directory.url.path + "/scripts", withIntermediateDirectories: true)
        chmod(try directory.write("scripts/volume", "#!/bin/sh\necho \"$BLOCK_NAME $BLOCK_INSTANCE\"\n"), 0o755)
        let configPath = try directory.write(
            "i3blocks.config",
            "command=scripts/$BLOCK_NAME\ninterval=once\n\n[volume]\ninstance=Master\n\n[volume]\ninstance=Capture\n")
        let imported = Self.run(["import", "i3blocks", configPath])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("  # section [volume] is widget 'volume_2'"), "\(imported.stdout)")
        #expect(imported.stdout.contains("      name: \"volume\""), "\(imported.stdout)")
        let driven = try DrivenDaemon(config: imported.stdout, in: directory)
        #expect(
            driven.turns(until: "both volumes") {
                driven.read("volume.i3bar")?.hasPrefix(#"{"full_text":"volume Master""#) == true
                    && driven.read("volume_2.i3bar")?.hasPrefix(#"{"full_text":"volume Capture""#) == true
            }, "\(driven.log)")
    }

    /// The new i3blocks config's click section, run by a shell as i3blocks runs it for a click: the script sees the
    /// button and the pointer's place on the screen, as it did under i3blocks. The `widgetd` it finds on its PATH
    /// prints its arguments, which are then run against the driven daemon.
    @Test func theClickSectionPassesThePointersPlace() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configPath = try directory.write(
            "i3blocks.config", "[popup]\ncommand=echo \"b=$BLOCK_BUTTON x=$BLOCK_X y=$BLOCK_Y\"\ninterval=once\n")
        let barPath = directory.url.path + "/new-i3blocks.conf"
        let imported = Self.run(["import", "i3blocks", configPath, "--i3blocks-config", barPath])
        #expect(imported.status == 0, "\(imported.stderr)")
        let bar = try String(contentsOfFile: barPath, encoding: .utf8)
        let click = try #require(
            bar.split(separator: "\n").first { $0.hasPrefix("command=case $BLOCK_BUTTON") }?.dropFirst("command=".count)
        )
        let driven = try DrivenDaemon(config: imported.stdout, in: directory)
        #expect(driven.turns(until: "the first run") { driven.read("popup.i3bar")?.contains("b= x= y=") == true })

        let binaries = directory.url.path + "/bin"
        try FileManager.default.createDirectory(atPath: binaries, withIntermediateDirectories: true)
        chmod(
            try directory.write("bin/widgetd", "#!/bin/sh\nfor word in \"$@\"; do printf '%s\\n' \"$word\"; done\n"),
            0o755)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", String(click)]
        process.environment = [
            "PATH": binaries + ":/usr/bin:/bin", "BLOCK_BUTTON": "3", "BLOCK_X": "1186", "BLOCK_Y": "13",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let words = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try process.waitForExitOrThrow()
        #expect(process.terminationStatus == 0)
        let arguments = words.split(separator: "\n").map(String.init)
        #expect(arguments.first == "click", "\(arguments)")
        let clicked = driven.command(arguments)
        #expect(clicked.status == 0, "\(clicked.stderr)")
        #expect(
            driven.turns(until: "the click's run") {
                driven.read("popup.i3bar")?.contains("b=3 x=1186 y=13") == true
            }, "\(driven.read("popup.i3bar") ?? "")")
    }
}
