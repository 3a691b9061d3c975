import Basics
import Config
import Formats
import FoundationEssentials
import Glibc
import Kind
import Synchronization
import System

/// Where a plugin was found and how it starts.
public struct PluginSource: Sendable, Hashable {
    /// The file name in a plugin directory, or the key in `plugins:`.
    public var name: String
    public var argv: [String]
    /// `widgets.yaml`, or the directory it was found in.
    public var origin: String
}

/// A plugin found, with its declaration, or why it has none.
public struct FoundPlugin: Sendable {
    public var source: PluginSource
    public var declaration: PluginDeclaration?
    public var error: String?
    /// The kind the plugin declared the last time it said hello, while it fails now: a widget of that kind is told
    /// which plugin it waits for, even when the plugin's name is not its kind's.
    public var lastKind: String?
    /// It said hello, with a kind a built-in or an earlier plugin already has.
    public var isClash = false
    /// The last lines of its standard error when it failed to say hello (`StandardErrorTail`).
    public var standardError: [String] = []
}

/// Finds plugins (executables in `$XDG_DATA_HOME/widgetd/plugins/` and `/usr/lib/widgetd/plugins/`, plus
/// `plugins:` in widgets.yaml) and reads their declarations through a cache in `$XDG_CACHE_HOME/widgetd/plugins/`,
/// keyed by the path, size and mtime of every file the command names: a plugin runs once, with a short deadline,
/// only when it changed, so `check`, `kinds` and `preview` know its kind without a daemon.
public enum PluginCatalog {
    /// How long a plugin may take to say hello when a command reads its declaration.
    public static let helloDeadline: TimeInterval = 3
    /// How long the daemon waits for it when it tries again a plugin that failed to load (`DaemonPlugins`): a plugin
    /// slow to start at login (a cold cache, heavy imports) says hello on that try.
    public static let daemonHelloDeadline: TimeInterval = 10
    public static let systemDirectory = "/usr/lib/widgetd/plugins"

    public static func directories(environment: [String: String]) -> [String] {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Path.homeDirectory()
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "\(home)/.local/share"
        let system = environment["WIDGETD_SYSTEM_PLUGINS"] ?? systemDirectory
        return ["\(data)/widgetd/plugins", system]
    }

    public static func cacheDirectory(environment: [String: String]) -> String {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Path.homeDirectory()
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "\(home)/.cache"
        return "\(cache)/widgetd/plugins"
    }

    /// Every plugin, `plugins:` first, then the user's directory, then the system's; a name seen before is skipped.
    /// A word of a `plugins:` command starting with `~/` is under the home directory, as a shell would read it.
    public static func sources(environment: [String: String], configured: [PluginCommand]) -> [PluginSource] {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Path.homeDirectory()
        var sources = configured.map { command in
            PluginSource(
                name: command.name, argv: command.argv.map { $0.hasPrefix("~/") ? home + $0.dropFirst() : $0 },
                origin: "widgets.yaml")
        }
        for directory in directories(environment: environment) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = "\(directory)/\(name)"
                var info = stat()
                guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(path, X_OK) == 0,
                    !sources.contains(where: { $0.name == name })
                else { continue }
                sources.append(PluginSource(name: name, argv: [path], origin: directory))
            }
        }
        return sources
    }

    /// Programs in the plugin directories that are not plugins because they are not executable (an example copied
    /// from a package's documentation, where it lost its mode): `widgetd plugins` names them. A program is a file
    /// that starts with `#!` or is an ELF binary; a README there is nobody's mistake.
    public static func notExecutable(environment: [String: String]) -> [String] {
        directories(environment: environment).flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted().compactMap { name in
                let path = "\(directory)/\(name)"
                var info = stat()
                guard !name.hasPrefix("."), stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                    access(path, X_OK) != 0, startsLikeAProgram(path)
                else { return nil }
                return path
            }
        }
    }

    private static func startsLikeAProgram(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var start = [UInt8](repeating: 0, count: 4)
        let count = read(descriptor, &start, 4)
        return (count >= 2 && start[0] == UInt8(ascii: "#") && start[1] == UInt8(ascii: "!"))
            || (count == 4 && start == [0x7F, 0x45, 0x4C, 0x46])
    }

    /// Which remembered failures a load runs the plugin again for.
    public enum Retry: Sendable {
        /// None: a command a bar runs at every click must not wait for a silent plugin each time.
        case none
        /// Every failure (the daemon's start and `widgetd plugins`: a plugin that failed may have been fixed since).
        case failures
    }

    /// Every plugin with its declaration; kinds that clash with a built-in or an earlier plugin get an error.
    ///
    /// A plugin is run, with `deadline` to say hello, only when its files changed since the cache's entry, or when the
    /// entry is a failure that `retrying` names. A plugin that said nothing in time is remembered as such too, so that
    /// one that never answers costs a command its wait once, not every bar click. `only`: the plugins by these names
    /// alone (the daemon trying again those that failed).
    public static func load(
        environment: [String: String], configured: [PluginCommand], builtIn: [String],
        deadline: TimeInterval = helloDeadline, retrying: Retry = .none, only: Set<String>? = nil
    ) -> [FoundPlugin] {
        let cache = cacheDirectory(environment: environment)
        var taken = Set(builtIn)
        let sources = sources(environment: environment, configured: configured).filter {
            only?.contains($0.name) ?? true
        }
        let declared = declarations(
            of: sources, cacheDirectory: cache, deadline: deadline, retrying: retrying)
        return declared.map { declared in
            var found = declared
            if let kind = found.declaration?.name {
                if taken.contains(kind) {
                    found.error = "declares kind '\(kind)', which another kind already has"
                    found.declaration = nil
                    found.isClash = true
                } else {
                    taken.insert(kind)
                }
            }
            return found
        }
    }

    /// Every source's declaration, in their order: from the cache when it matches the files (on this thread), else by
    /// running the plugin until its hello, the plugins that must be run all at once, so three silent ones cost one
    /// deadline, not three.
    static func declarations(
        of sources: [PluginSource], cacheDirectory: String, deadline: TimeInterval, retrying: Retry
    ) -> [FoundPlugin] {
        var found = sources.map {
            cachedDeclaration(of: $0, cacheDirectory: cacheDirectory, retrying: retrying)
        }
        let toRun = found.indices.filter { found[$0] == nil }
        guard toRun.count > 1 else {
            for index in toRun {
                found[index] = probedDeclaration(of: sources[index], cacheDirectory: cacheDirectory, deadline: deadline)
            }
            return found.map { $0! }
        }
        let done = Condition()
        let probed = Mutex<[Int: FoundPlugin]>([:])
        for index in toRun {
            let source = sources[index]
            let work: @Sendable () -> Void = {
                let declared = probedDeclaration(of: source, cacheDirectory: cacheDirectory, deadline: deadline)
                probed.withLock { $0[index] = declared }
                done.lock()
                done.broadcast()
                done.unlock()
            }
            do {
                try DetachedThread.start(name: "plugin probe", work)
            } catch {
                work()
            }
        }
        done.lock()
        while probed.withLock({ $0.count }) < toRun.count { done.wait() }
        done.unlock()
        probed.withLock { for (index, declared) in $0 { found[index] = declared } }
        return found.map { $0! }
    }

    /// The cache's entry when it matches the files and is not a failure `retrying` names; nil otherwise. A failure
    /// holds only while the directories of the plugin's files are as they were too: a helper copied in beside it, or a
    /// module it imports fixed there, is a reason to run it again that its own files do not show.
    private static func cachedDeclaration(
        of source: PluginSource, cacheDirectory: String, retrying: Retry
    ) -> FoundPlugin? {
        guard let cached = cacheEntry(of: source.name, in: cacheDirectory),
            cached["key"]?.string == cacheKey(source.argv),
            cached["hello"] != nil || cached["directories"]?.string == directoriesKey(source.argv)
        else { return nil }
        switch retrying {
        case .none: break
        case .failures: if cached["hello"] == nil { return nil }
        }
        if let hello = cached["hello"]?.object {
            do {
                return FoundPlugin(source: source, declaration: try PluginDeclaration.parse(hello))
            } catch {
                // A hello this build refuses (another protocol, a name twice) is a failure too.
                return retrying == .failures ? nil : FoundPlugin(source: source, error: "\(error)")
            }
        }
        return FoundPlugin(
            source: source, error: cached["error"]?.string ?? "unknown error", lastKind: cached["lastKind"]?.string,
            standardError: cached["stderr"]?.strings ?? [])
    }

    private static func cacheEntry(of name: String, in cacheDirectory: String) -> [String: JSONValue]? {
        FileManager.default.contents(atPath: "\(cacheDirectory)/\(name).json").flatMap {
            (try? JSONValue.parse($0))?.object
        }
    }

    /// The kind an entry's hello declared, or the one it remembered from an earlier hello.
    private static func kindName(in entry: [String: JSONValue]?) -> String? {
        entry?["hello"]?.object?["kind"]?.object?["name"]?.string ?? entry?["lastKind"]?.string
    }

    /// Runs the plugin until its hello, and keeps what it said (or that it said nothing) in the cache.
    private static func probedDeclaration(
        of source: PluginSource, cacheDirectory: String, deadline: TimeInterval
    ) -> FoundPlugin {
        var record: [String: JSONValue] = ["key": JSONValue(cacheKey(source.argv)), "argv": JSONValue(source.argv)]
        let found: FoundPlugin
        switch PluginProbe.hello(source.argv, deadline: deadline) {
        case .success(let hello):
            record["hello"] = .object(hello)
            do {
                found = FoundPlugin(source: source, declaration: try PluginDeclaration.parse(hello))
            } catch {
                found = FoundPlugin(source: source, error: "\(error)")
            }
        case .failure(let error):
            record["error"] = JSONValue(error.description)
            record["stderr"] = JSONValue(error.standardError)
            record["directories"] = JSONValue(directoriesKey(source.argv))
            let lastKind = kindName(in: cacheEntry(of: source.name, in: cacheDirectory))
            if let lastKind { record["lastKind"] = JSONValue(lastKind) }
            found = FoundPlugin(
                source: source, error: error.description, lastKind: lastKind, standardError: error.standardError)
        }
        try? PrivateDirectory.make(cacheDirectory)
        try? Data(JSONValue.object(record).serialized()).write(
            to: URL(fileURLWithPath: "\(cacheDirectory)/\(source.name).json"), options: .atomic)
        return found
    }

    /// The path, size and mtime of every word of the command that names a file (the program, found on PATH when
    /// needed, and a script it is given), and the words themselves.
    static func cacheKey(_ argv: [String]) -> String {
        var parts = argv
        for path in files(of: argv) {
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            parts.append("\(path):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
        }
        return parts.joined(separator: "\u{1F}")
    }

    /// The files the command names: the program (found on PATH when it is a bare name) and the words that are files.
    /// Files only: a directory's mtime changes with every file written in it (a plugin's state directory).
    private static func files(of argv: [String]) -> [String] {
        argv.enumerated().compactMap { index, word in
            var path = word
            if index == 0, !word.contains("/") {
                let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
                path = directories.map { "\($0)/\(word)" }.first { access($0, X_OK) == 0 } ?? word
            }
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return path
        }
    }

    /// Most files of one directory a failure's key looks at: a plugin's directory holds a few, and a directory of
    /// thousands (a script in /usr/bin) is then keyed by its own mtime alone, which still changes when a file is
    /// added, removed or renamed there.
    static let directoryKeyLimit = 256

    /// What a failure is remembered with beside `cacheKey`: every regular file (name, size, mtime) in the directory
    /// of each file the command names but its interpreter (the program, when a script follows it), so that a plugin
    /// that failed for want of a file beside it runs again as soon as that file is there.
    static func directoriesKey(_ argv: [String]) -> String {
        var files = files(of: argv)
        if files.count > 1 { files.removeFirst() }
        var parts: [String] = []
        for directory in Set(files.map(Path.directory(of:))).sorted() {
            var info = stat()
            guard stat(directory, &info) == 0 else { continue }
            parts.append("\(directory):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            guard names.count <= directoryKeyLimit else { continue }
            for name in names.sorted() {
                let path = directory + "/" + name
                guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                parts.append("\(name):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
            }
        }
        return parts.joined(separator: "\u{1F}")
    }
}

extension KindRegistry {
    /// The registry with the plugins' kinds after the built-in ones, each with a host that starts on first use.
    public func adding(_ plugins: [FoundPlugin]) -> KindRegistry {
        adding(plugins.compactMap(PluginKind.init(serving:)), from: plugins)
    }

    /// The registry with `kinds`, those `plugins` serve (`PluginKind.init(serving:)`), after the built-in ones; the
    /// plugins that failed are named as unavailable.
    public func adding(_ kinds: [PluginKind], from plugins: [FoundPlugin]) -> KindRegistry {
        // A plugin that failed keeps its name, and the kind it last declared, so that a widget of its kind is told why
        // the kind is missing.
        var unavailable = self.unavailable
        for plugin in plugins where plugin.declaration == nil {
            let reason = plugin.error ?? "unknown error"
            unavailable[plugin.source.name] = unavailable[plugin.source.name] ?? reason
            if let kind = plugin.lastKind, kind != plugin.source.name, unavailable[kind] == nil {
                unavailable[kind] = "plugin '\(plugin.source.name)': \(reason)"
            }
        }
        return with(kinds: self.kinds + kinds, unavailable: unavailable)
    }
}
