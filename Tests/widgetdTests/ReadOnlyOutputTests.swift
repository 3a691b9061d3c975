import Foundation
import TestSupport
import Testing

/// An output directory made read-only under a daemon writing 60 per-second clocks, and writable again, over and over:
/// the renames fail in the middle of a second's batch, and settling the batch's exchanges wrote failed files again by
/// name, which left the writer holding an index into its table of written files that no longer held; the daemon died
/// (`Dictionary elements using an invalid index`). It must go on and write every file again once it can.
///
/// Permissions stop only an unprivileged user, so as root the daemon runs as `nobody` (`runuser`).
@Suite("widgetd run: an output directory that turns read-only", .spawnsDaemons)
struct ReadOnlyOutputTests {
    @Test(.aheadInLine) func theDaemonGoesOnAndWritesAgainOnceItCan() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Made for the user the daemon runs as: `nobody` must reach it, and its runtime directory must be its own.
        chmod(directory.url.path, 0o777)
        var config = "widgets:\n"
        for index in 0..<60 {
            config +=
                "  sec\(index):\n    kind: clock\n    intent: {format: \"%T\", seconds: true}\n    output: [plain]\n"
        }
        let configPath = try directory.write("widgets.yaml", config)
        chmod(configPath, 0o644)
        let script = try directory.write(
            "run.sh",
            """
            #!/bin/sh
            export XDG_RUNTIME_DIR="$1/run" HOME="$1/home"
            mkdir -p "$XDG_RUNTIME_DIR" "$HOME" && chmod 700 "$XDG_RUNTIME_DIR"
            "$2" run --config "$1/widgets.yaml" 2> "$1/log" &
            daemon=$!
            out="$XDG_RUNTIME_DIR/widgetd/out"
            while [ ! -e "$out/sec59.plain" ]; do sleep 0.05; done
            for round in 1 2 3; do
              chmod 500 "$out"; sleep 1.3; chmod 700 "$out"; sleep 0.7
            done
            kill -0 $daemon || { echo "the daemon died"; exit 1; }
            rm "$out/sec0.plain"
            while [ ! -e "$out/sec0.plain" ]; do sleep 0.05; done
            kill $daemon; wait $daemon
            echo "status $?"

            """)
        chmod(script, 0o755)
        let asNobody = getuid() == 0
        let result = try await awaitingPrograms {
            try runProgram(
                asNobody ? "/usr/sbin/runuser" : script,
                (asNobody ? ["-u", "nobody", "--", script] : []) + [directory.url.path, widgetdBinary.path])
        }
        let log = (try? String(contentsOfFile: directory.url.path + "/log", encoding: .utf8)) ?? ""
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)\n\(log.suffix(1500))")
        #expect(result.stdout.contains("status 0"), "\(result.stdout)")
        #expect(!log.contains("Fatal error"), "\(log.suffix(1500))")
        #expect(log.contains("Permission denied"), "the writes did fail meanwhile: \(log.suffix(800))")
    }
}
