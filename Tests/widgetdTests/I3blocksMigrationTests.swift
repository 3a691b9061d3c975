import Foundation
import Glibc
import TestSupport
import Testing

/// Moving an i3blocks config to widgetd: `widgetd import i3blocks` and what it notes, and Debian's real i3blocks run
/// on the old config (TestSupport's `I3blocksSample`) and on the new one side by side. The imported config run by the
/// daemon, a renamed section and the click section are DaemonTests' `DrivenI3blocksImportTests`.
@Suite("i3blocks migration", .spawnsDaemons)
struct I3blocksMigrationTests {
    /// The config without what i3blocks 1.4 refuses: it reads lower-case keys only ("malformated line: T_WARN=80")
    /// and exports no custom property, and it has no `border` ("unknown key"); i3blocks 1.5 and widgetd take both.
    static let i3blocks14Config = I3blocksSample.config.replacingOccurrences(of: "T_WARN=80\n", with: "")
        .replacingOccurrences(of: "border=#ff0000\n", with: "")

    /// A block with `signal=` is named with the command that replaces a key binding's `pkill -RTMIN+N i3blocks` (which
    /// ends i3blocks 1.4 once the new config asks for no signal): on the terminal and in the file, which still checks.
    @Test func blocksWithSignalsAreListedWithTheReloadThatReplacesThePkill() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configPath = try directory.write(
            "i3blocks.config",
            "[volume]\ncommand=echo 50%\nsignal=10\n\n[cpu]\ncommand=echo 3%\ninterval=5\n\n"
                + "[mail]\ncommand=echo 0\nsignal=3\n")
        let imported = try runWidgetd(["import", "i3blocks", configPath])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("widgetd: note: blocks with signal= are widgets now"), "\(imported.stderr)")
        let advice = imported.stderr.split(separator: "\n").filter { $0.contains("pkill") && $0.contains("->") }
        #expect(
            advice == [
                "  pkill -RTMIN+10 i3blocks  ->  widgetd reload volume",
                "  pkill -RTMIN+3 i3blocks  ->  widgetd reload mail",
            ], "\(imported.stderr)")
        #expect(
            imported.stdout.contains("#   pkill -RTMIN+10 i3blocks  ->  widgetd reload volume"), "\(imported.stdout)")
        let yamlPath = try directory.write("widgets.yaml", imported.stdout)
        let check = try runWidgetd(["check", "--config", yamlPath])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // Without a signal, nothing to change, nothing said.
        let quiet = try runWidgetd(
            ["import", "i3blocks", try directory.write("plain.config", "[cpu]\ncommand=echo 3%\ninterval=5\n")])
        #expect(quiet.stderr.isEmpty && !quiet.stdout.contains("pkill"), "\(quiet.stderr)")
    }

    /// A block running a well-known i3blocks-contrib script is told the system kind that replaces it, and kept as it
    /// is: the script may have been changed, and switching is the user's choice.
    @Test func contribScriptsAreToldTheirKindAndKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configPath = try directory.write(
            "i3blocks.config",
            "[cpu]\ncommand=$SCRIPT_DIR/cpu_usage\ninterval=10\n\n[memory]\ncommand=/usr/share/i3blocks/$BLOCK_NAME\n"
                + "interval=30\n\n[volume]\ncommand=~/blocks/volume -a\ninterval=30\n\n[mine]\ncommand=echo 1\n")
        let imported = try runWidgetd(["import", "i3blocks", configPath])
        #expect(imported.status == 0, "\(imported.stderr)")
        let notes = imported.stdout.split(separator: "\n").filter { $0.contains("i3blocks-contrib") }
        #expect(notes.count == 3, "\(imported.stdout)")
        #expect(notes.first?.contains("runs i3blocks-contrib's cpu_usage: kind cpu replaces it") == true, "\(notes)")
        #expect(notes.dropFirst().first?.contains("contrib's memory: kind memory replaces it") == true, "\(notes)")
        #expect(notes.last?.contains("contrib's volume: kind sound replaces it") == true, "\(notes)")
        // Kept as exec widgets, and the file checks.
        #expect(imported.stdout.components(separatedBy: "kind: exec").count - 1 == 4, "\(imported.stdout)")
        let check = try runWidgetd(["check", "--config", try directory.write("widgets.yaml", imported.stdout)])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// What the import cannot take is said, and the file it writes still checks: a `format=` it does not know is a
    /// comment, and control characters of the old file never reach a comment (a NUL there failed the whole file).
    @Test func oddPropertiesAreNotedAndTheResultStillChecks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configPath = directory.url.path + "/i3blocks.config"
        try Data("[a]\ncommand=echo hi\nformat=xml\n\n[b\u{0}c\u{1}]\ncommand=echo\n".utf8).write(
            to: URL(fileURLWithPath: configPath))
        let imported = try runWidgetd(["import", "i3blocks", configPath])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("  # format=xml is not raw or json: left out"), "\(imported.stdout)")
        #expect(imported.stdout.contains("  # section [b?c?] is widget"), "\(imported.stdout)")
        let yamlPath = try directory.write("widgets.yaml", imported.stdout)
        let check = try runWidgetd(["check", "--config", yamlPath])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// i3blocks' own spellings that the import dropped or broke: the numbers for once, repeat and persist, `5s`, an
    /// empty `command=` (a block showing its full_text), a key with a dot; and a block with no interval, which
    /// i3blocks runs only on a click or signal, is noted.
    @Test func i3blocksSpellingsAreTranslated() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configPath = try directory.write(
            "i3blocks.config",
            "[r]\ncommand=echo r\ninterval=-2\n\n[p]\ncommand=echo p\ninterval=-3\n\n[o]\ncommand=echo o\ninterval=-1\n"
                + "\n[s]\ncommand=echo s\ninterval=5s\n\n[static]\ncommand=\nfull_text=Restart\n\n"
                + "[button]\ncommand=echo clicked\nT.WARN=5\n")
        let imported = try runWidgetd(["import", "i3blocks", configPath])
        #expect(imported.status == 0, "\(imported.stderr)")
        let yaml = imported.stdout
        // A widget's lines: those after `  NAME:` that are indented deeper.
        func widget(_ name: String) -> String {
            let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
            guard let header = lines.firstIndex(of: "  \(name):") else { return "" }
            return lines[(header + 1)...].prefix { $0.hasPrefix("    ") }.joined(separator: "\n")
        }
        #expect(widget("r").contains("interval: repeat"), "\(yaml)")
        #expect(widget("p").contains("interval: persist"), "\(yaml)")
        #expect(!widget("o").contains("interval:"), "\(yaml)")
        #expect(widget("s").contains("interval: 5s"), "\(yaml)")
        #expect(widget("static").contains("printf"), "\(yaml)")
        #expect(!yaml.contains("is not understood"), "\(yaml)")
        #expect(yaml.contains("no interval: i3blocks runs this block only on a click or a signal"), "\(yaml)")
        let yamlPath = try directory.write("widgets.yaml", yaml)
        let check = try runWidgetd(["check", "--config", yamlPath])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// A config saved with CR LF line ends is read line by line (CR LF is one Swift Character, and the whole file was
    /// one line that made no section).
    @Test func aConfigWithCRLFLineEndsIsReadLineByLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configPath = try directory.write("i3blocks.config", "[volume]\r\ncommand=echo 50%\r\ninterval=5\r\n")
        let imported = try runWidgetd(["import", "i3blocks", configPath])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("  volume:\n"), "\(imported.stdout)")
        #expect(imported.stdout.contains("interval: 5"), "\(imported.stdout)")
        #expect(!imported.stdout.contains("\r"), "\(imported.stdout)")
    }

    @Test(.aheadInLine) func realI3blocksShowsTheSameBeforeAndAfterTheMove() async throws {
        let i3blocks = try requireExecutable("i3blocks", package: "i3blocks")
        let directory = try I3blocksSample.workspace(config: Self.i3blocks14Config)
        defer { directory.remove() }
        let configPath = directory.url.path + "/i3blocks.config"
        let imported = try runWidgetd([
            "import", "i3blocks", configPath, "--i3blocks-config", directory.url.path + "/new.conf",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let daemon = try DaemonUnderTest(config: imported.stdout, reusing: directory)
        defer { daemon.stop() }
        let environment = daemon.environment.merging(
            ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "WIDGETD_CONFIG": daemon.configPath]) { $1 }

        // Before: i3blocks runs the scripts itself. After: i3blocks shows widgetd's widgets.
        let beforeDirectory = try TemporaryDirectory()
        defer { beforeDirectory.remove() }
        let before = try I3blocks(
            executable: i3blocks,
            config: Self.i3blocks14Config.replacingOccurrences(of: "=./", with: "=\(directory.url.path)/"),
            in: beforeDirectory, environment: environment)
        defer { before.stop() }
        let afterDirectory = try TemporaryDirectory()
        defer { afterDirectory.remove() }
        let after = try I3blocks(
            executable: i3blocks, config: try I3blocks.config(from: directory.url.path + "/new.conf"),
            in: afterDirectory,
            environment: environment)
        defer { after.stop() }

        func beforeBlock(_ name: String) -> I3barBlock? { before.latestLine?.first { $0.name == name } }
        func afterBlock(_ name: String) -> I3barBlock? { after.latest(instance: name) }
        let sections = ["cpu", "iface", "units", "ticker"]
        #expect(
            await waitFor("both bars to show the same text for every block", timeout: .seconds(20)) {
                sections.allSatisfy {
                    beforeBlock($0)?.fullText != nil && afterBlock($0)?.fullText == beforeBlock($0)?.fullText
                }
            }, "before:\n\(before.output)\n\(before.errors)\nafter:\n\(after.output)\n\(after.errors)")
        for name in sections {
            let old = try #require(beforeBlock(name))
            let new = try #require(afterBlock(name))
            #expect(new.fullText == old.fullText, "\(name)")
            #expect(new.color == old.color, "\(name)")
            #expect((new.markup ?? "none") == (old.markup ?? "none"), "\(name)")
        }
        // What the user sees, spelled out: the label before the text, the section's colour, the markup as markup,
        // the persist script's line.
        #expect(afterBlock("cpu")?.fullText == "CPU 42% ")
        #expect(afterBlock("iface")?.color?.lowercased() == "#00ff00")
        #expect(afterBlock("units")?.markup == "pango")
        #expect(afterBlock("ticker")?.fullText == "tick 1")
    }
}
