import Foundation

/// `widgetd check` on configs built to be slow: the wall time and how much it prints.
///
/// Without the config's limits, a few thousand duplicate entries on one long line would take seconds and print hundreds
/// of megabytes. Each config here is checked a few times; the figure is the median wall time and the bytes written to
/// stderr by one run.
enum PathologicalConfigBench {
    struct Result {
        var name: String
        var bytes: Int
        var check: Summary
        var printed: Int
    }

    /// The configs: the duplicates line, a 1 MiB file with two errors on every line, one long line of errors,
    /// and a file just over the size limit (refused unread).
    static func configs() -> [(name: String, text: String)] {
        let duplicates =
            "widgets: {" + Array(repeating: "w: {kind: clock}", count: 8_000).joined(separator: ", ") + "}\n"
        var everyLine = "widgets:\n"
        var index = 0
        while everyLine.utf8.count < (1 << 20) - 100 {
            everyLine += "  w\(index): {kind: clokc, intreval: 5}\n"
            index += 1
        }
        let longLine = "widgets: {" + (0..<20_000).map { "w\($0): {kind: clokc}" }.joined(separator: ", ") + "}\n"
        let tooLarge = "widgets: {}\n" + String(repeating: "#", count: 10 << 20)
        return [
            ("8,000 duplicates on one line", duplicates), ("1 MiB, two errors a line", everyLine),
            ("20,000 errors on one line", longLine), ("10 MB file", tooLarge),
        ]
    }

    static func run(runs: Int, root: String, widgetd: String) throws -> [Result] {
        var results: [Result] = []
        for (index, config) in configs().enumerated() {
            let scenario = try Scenario(root: root, name: "pathological-\(index)", widgetd: widgetd)
            try config.text.write(toFile: scenario.config, atomically: true, encoding: .utf8)
            var times: [Double] = []
            for _ in 0..<runs {
                try? FileManager.default.removeItem(atPath: scenario.log)
                let result = try scenario.run(["check", "--config", scenario.config])
                guard result.status == 1 else { throw BenchError("check of \(config.name) exited \(result.status)") }
                times.append(result.seconds)
            }
            let printed = (try? FileManager.default.attributesOfItem(atPath: scenario.log)[.size] as? Int) ?? 0
            results.append(
                Result(name: config.name, bytes: config.text.utf8.count, check: Summary(times), printed: printed))
        }
        return results
    }
}
