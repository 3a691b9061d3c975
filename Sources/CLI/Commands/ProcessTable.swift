import Basics
import FoundationEssentials
import Glibc

/// The processes' command lines, from `/proc/PID/cmdline`, and their environments, for `widgetd doctor`.
enum ProcessTable {
    struct Process {
        var pid: Int32
        var arguments: [String]
    }

    static func commandLines() -> [Process] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Process? in
            guard let pid = Int32(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                !data.isEmpty
            else { return nil }
            return Process(pid: pid, arguments: strings(in: data))
        }
    }

    /// The environment `pid` started with; nil when it cannot be read (another user's process, one that ended).
    static func environment(of pid: Int32) -> [String: String]? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return nil }
        var environment: [String: String] = [:]
        for assignment in strings(in: data) {
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            environment[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        return environment
    }

    /// NUL-terminated strings.
    private static func strings(in data: Data) -> [String] {
        data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
            String(decoding: $0, as: UTF8.self)
        }
    }
}

/// The config files of the bars that run, whose text may name a widget: i3blocks' (`-c FILE`, else its default),
/// waybar's (`-c FILE`, else its default), polybar's (`-c FILE`, else its default) and tmux's.
enum BarConfigs {
    static func texts(environment: [String: String], processes: [[String]]) -> [String] {
        let home = environment["HOME"] ?? Path.homeDirectory()
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        let defaults: [String: [String]] = [
            "i3blocks": [configHome + "/i3blocks/config", home + "/.i3blocks.conf", "/etc/i3blocks.conf"],
            "waybar": [configHome + "/waybar/config", configHome + "/waybar/config.jsonc"],
            "polybar": [configHome + "/polybar/config.ini", configHome + "/polybar/config"],
            "tmux": [home + "/.tmux.conf", configHome + "/tmux/tmux.conf"],
        ]
        var paths: [String] = []
        for arguments in processes {
            guard let program = arguments.first.map({ Path.lastComponent(of: $0) }),
                let fallback = defaults[program]
            else { continue }
            if let flag = arguments.firstIndex(where: { $0 == "-c" || $0 == "--config" || $0 == "-f" }),
                arguments.indices.contains(flag + 1)
            {
                paths.append(arguments[flag + 1])
            } else {
                paths += fallback
            }
        }
        return Set(paths).compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
    }
}
