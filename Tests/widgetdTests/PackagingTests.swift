import Foundation
import TestSupport
import Testing

/// scripts/install, scripts/uninstall and scripts/package-deb, run for real into temporary directories.
@Suite("Install, uninstall and the Debian package", .startsFirst)
struct PackagingTests {
    /// The release binary the package is built from: `.build/release/widgetd` when it is newer than everything it is
    /// built from, else the one an earlier run built into a scratch path of its own when that one is, else one built
    /// there now, once (the running `swift test` holds `.build`'s lock). So a run after an edit builds it once, and
    /// the runs after that reuse it until the sources change again.
    static let releaseBinary: Result<String, BuildFailure> = {
        let root = packageRoot.path
        let scratch = root + "/.build/package-test"
        for candidate in [root + "/.build/release/widgetd", scratch + "/release/widgetd"]
        where isCurrent(candidate, root: root) {
            return .success(candidate)
        }
        let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        guard
            let build = try? runProgram(
                "/usr/bin/env", ["swift", "build", "-c", "release", "--product", "widgetd", "--scratch-path", scratch],
                environment: environment, directory: root)
        else { return .failure(BuildFailure(log: "could not start swift build")) }
        guard build.status == 0 else { return .failure(BuildFailure(log: build.stdout + build.stderr)) }
        return .success(scratch + "/release/widgetd")
    }()

    /// `releaseBinary`, built (when it must be) on a thread of its own: a release build takes minutes, and two tests
    /// waiting for it on Swift Testing's two pool threads would stop every other test meanwhile.
    static func builtReleaseBinary() async throws -> String {
        try await awaitingPrograms { try releaseBinary.get() }
    }

    struct BuildFailure: Error, CustomStringConvertible {
        var log: String
        var description: String { "the release build failed:\n\(log)" }
    }

    /// What a release binary is made of: the sources, the manifest and the linker's inputs.
    static let buildInputs = ["Sources", "Package.swift", "Linker"]

    /// Whether `binary` exists and is newer than every one of `buildInputs` under `root` (and every file and directory
    /// in them: a directory's time changes when a file in it is added, removed or renamed).
    static func isCurrent(_ binary: String, root: String) -> Bool {
        func modified(_ path: String) -> Date? {
            (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        }
        guard let built = modified(binary) else { return false }
        for input in buildInputs {
            let path = root + "/" + input
            if let changed = modified(path), changed > built { return false }
            let enumerator = FileManager.default.enumerator(atPath: path)
            while let name = enumerator?.nextObject() as? String {
                if let changed = modified(path + "/" + name), changed > built { return false }
            }
        }
        return true
    }

    @Test("install puts each part where it belongs; the binary and man pages work; uninstall removes exactly them")
    func installAndUninstall() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let prefix = directory.url.path + "/does/not/exist/yet"
        let install = try await awaitingPrograms {
            try runScript("install", ["--prefix", prefix, "--binary", widgetdBinary.path])
        }
        try #require(install.status == 0, "\(install.stderr)")
        let expected = [
            "bin/widgetd", "share/man/man1/widgetd.1", "share/man/man5/widgets.yaml.5",
            "share/bash-completion/completions/widgetd", "share/zsh/site-functions/_widgetd",
            "share/fish/vendor_completions.d/widgetd.fish", "share/systemd/user/widgetd.service",
            "share/doc/widgetd/LICENSE", "share/doc/widgetd/examples/widgets.yaml",
            "share/doc/widgetd/examples/i3blocks.conf", "share/doc/widgetd/examples/waybar/config.jsonc",
            "share/doc/widgetd/examples/polybar/widgetd.ini", "share/doc/widgetd/examples/tmux/widgetd.tmux.conf",
            "share/doc/widgetd/examples/widgetd.service.d/graphical-session.conf",
        ]
        for file in expected {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "missing \(file)")
        }
        // The example plugins stay executable: copied into the plugin directory, they run.
        for plugin in ["countdown", "loadavg", "pomodoro"] {
            #expect(access(prefix + "/share/doc/widgetd/examples/plugins/" + plugin, X_OK) == 0, "\(plugin)")
        }
        #expect(access(prefix + "/share/doc/widgetd/examples/plugins/test_plugins.py", X_OK) != 0)
        let version = try runProgram(prefix + "/bin/widgetd", ["--version"])
        #expect(version.stdout == (try runWidgetd(["--version"]).stdout))
        let file = try runProgram(try requireExecutable("file", package: "file"), [prefix + "/bin/widgetd"])
        #expect(file.stdout.contains("stripped") && !file.stdout.contains("not stripped"), "\(file.stdout)")
        let manProgram = try requireExecutable("man", package: "man-db")
        for page in ["man1/widgetd.1", "man5/widgets.yaml.5"] {
            let man = try await awaitingPrograms {
                try runProgram(manProgram, ["--warnings", "-l", prefix + "/share/man/" + page])
            }
            #expect(man.status == 0 && man.stderr.isEmpty, "\(page): \(man.stderr)")
        }

        let uninstall = try await awaitingPrograms { try runScript("uninstall", ["--prefix", prefix]) }
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(uninstall.stdout.contains("Left in place"))
        #expect(uninstall.stdout.contains("store"))
        #expect(uninstall.stdout.contains("rm -r"))
        let left = FileManager.default.enumerator(atPath: directory.url.path)?.allObjects as? [String] ?? []
        #expect(left.allSatisfy { !$0.contains("widgetd") }, "left behind: \(left)")
        // Someone else's file under the prefix stays.
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        let other = prefix + "/bin/other"
        _ = FileManager.default.createFile(atPath: other, contents: Data())
        let reinstall = try await awaitingPrograms {
            try runScript("install", ["--prefix", prefix, "--binary", widgetdBinary.path])
        }
        #expect(reinstall.status == 0)
        #expect(try await awaitingPrograms { try runScript("uninstall", ["--prefix", prefix]) }.status == 0)
        #expect(FileManager.default.fileExists(atPath: other))
    }

    /// Under the default prefix the unit goes where the user manager reads it, `$XDG_DATA_HOME/systemd/user`, which is
    /// where `doctor` looks for it too; it went to ~/.local/share whatever `XDG_DATA_HOME` said.
    @Test func theUserUnitGoesWhereTheUserManagerReadsIt() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let data = home.url.path + "/data"
        let install = try await awaitingPrograms {
            try runScript(
                "install", ["--prefix", home.url.path + "/.local", "--binary", widgetdBinary.path],
                environment: ["HOME": home.url.path, "XDG_DATA_HOME": data])
        }
        try #require(install.status == 0, "\(install.stderr)")
        #expect(FileManager.default.fileExists(atPath: data + "/systemd/user/widgetd.service"))
        #expect(!FileManager.default.fileExists(atPath: home.url.path + "/.local/share/systemd/user/widgetd.service"))
        #expect(!install.stdout.contains("does not read"), "\(install.stdout)")
        let uninstall = try await awaitingPrograms {
            try runScript(
                "uninstall", ["--prefix", home.url.path + "/.local"],
                environment: ["HOME": home.url.path, "XDG_DATA_HOME": data])
        }
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data + "/systemd/user/widgetd.service"))
    }

    @Test(
        "package-deb builds a .deb under .build with every part, the binary's version, the Depends and Recommends install.md lists, and lintian finds no error"
    )
    func debianPackage() async throws {
        for (tool, package) in [
            ("dpkg-deb", "dpkg"), ("dpkg-shlibdeps", "dpkg-dev"), ("strip", "binutils"), ("lintian", "lintian"),
        ] {
            _ = try requireExecutable(tool, package: package)
        }
        let binary = try await Self.builtReleaseBinary()
        let output = try TemporaryDirectory()
        defer { output.remove() }
        // dpkg-deb's fastest gzip level, through its own variable (the script passes `-Zgzip` and no level): what this
        // test checks — the parts, the fields, lintian's errors — is the same at any level, and level 9 cost 1.3 s of
        // CPU on this run's longest chain. No `--output`: the default must be a build directory, not the checkout.
        let build = try await awaitingPrograms {
            try runScript("package-deb", ["--binary", binary], environment: ["DPKG_DEB_COMPRESSOR_LEVEL": "1"])
        }
        try #require(build.status == 0, "\(build.stderr)")
        let deb = build.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        defer { try? FileManager.default.removeItem(atPath: deb) }
        #expect(deb.hasPrefix(packageRoot.path + "/.build/deb/"), "\(deb)")
        let version = try runProgram(binary, ["--version"]).stdout.split(separator: " ")[1]
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasSuffix("widgetd_\(version)_amd64.deb") || deb.hasSuffix("widgetd_\(version)_arm64.deb"))

        let contents = try runProgram("/usr/bin/dpkg-deb", ["-c", deb]).stdout
        // The example plugins keep their run bit, so a copy into the plugin directory runs; their tests do not.
        let modes = Dictionary(
            contents.split(separator: "\n").compactMap { line -> (String, String)? in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard let mode = fields.first, let path = fields.last else { return nil }
                return (String(path), String(mode))
            }, uniquingKeysWith: { first, _ in first })
        for plugin in ["countdown", "loadavg", "pomodoro"] {
            #expect(modes["./usr/share/doc/widgetd/examples/plugins/" + plugin] == "-rwxr-xr-x", "\(plugin)")
        }
        #expect(modes["./usr/share/doc/widgetd/examples/plugins/test_plugins.py"] == "-rw-r--r--")
        for path in [
            "./usr/bin/widgetd", "./usr/share/man/man1/widgetd.1.gz", "./usr/share/man/man5/widgets.yaml.5.gz",
            "./usr/share/bash-completion/completions/widgetd", "./usr/share/zsh/vendor-completions/_widgetd",
            "./usr/share/fish/vendor_completions.d/widgetd.fish", "./usr/lib/systemd/user/widgetd.service",
            "./usr/share/doc/widgetd/copyright", "./usr/share/doc/widgetd/changelog.gz",
            "./usr/share/doc/widgetd/examples/i3blocks.conf", "./usr/share/doc/widgetd/examples/widgets.yaml",
            "./usr/share/doc/widgetd/examples/waybar/config.jsonc",
        ] {
            #expect(contents.contains(" " + path + "\n"), "the package lacks \(path)")
        }
        #expect(contents.split(separator: "\n").allSatisfy { $0.contains("root/root") })

        func field(_ name: String) throws -> String {
            try runProgram("/usr/bin/dpkg-deb", ["-f", deb, name]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        #expect(try field("Package") == "widgetd")
        #expect(try field("Version") == version)
        let depends = try field("Depends")
        #expect(depends.contains("libyaml-0-2"), "\(depends)")
        #expect(depends.contains("libsqlite3-0"), "\(depends)")
        #expect(depends.contains("libc6"), "\(depends)")
        #expect(
            try Self.packageNames(in: depends) == Self.documented("Depends"),
            "docs/install.md's list; the package's: \(depends)")
        // The libraries the sound and music kinds load with dlopen, each at the version with every function they call.
        let recommends = try field("Recommends")
        #expect(recommends.contains("libpulse0 (>= "), "\(recommends)")
        #expect(recommends.contains("libdbus-1-3 (>= "), "\(recommends)")
        #expect(
            try Self.packageNames(in: recommends) == Self.documented("Recommends"),
            "docs/install.md's list; the package's: \(recommends)")
        #expect(try !field("Description").isEmpty)

        // Every check that can give an error runs (`--tags-from-file`, lintian's own selection of checks by the tags
        // asked for), and no other: 2.9 s of CPU against 4.2 for all of them, for the same verdict.
        let lintianProgram = try requireExecutable("lintian", package: "lintian")
        let errorTags = try Self.lintianErrorTags()
        try #require(errorTags.count > 100, "lintian's error tags: \(errorTags.count)")
        let tagList = output.url.path + "/error-tags"
        try (errorTags.joined(separator: "\n") + "\n").write(toFile: tagList, atomically: false, encoding: .utf8)
        let lintian = try await awaitingPrograms {
            try runProgram(lintianProgram, ["--tag-display-limit", "0", "--tags-from-file", tagList, deb])
        }
        #expect(lintian.status == 0, "lintian: \(lintian.stderr)")
        let errors = lintian.stdout.split(separator: "\n").filter { $0.hasPrefix("E:") }
        #expect(errors.isEmpty, "lintian errors:\n\(errors.joined(separator: "\n"))")
    }

    /// The packages of a `Depends` field, without versions, sorted: `libc6 (>= 2.34), libyaml-0-2` → both names.
    static func packageNames(in depends: String) -> [String] {
        depends.split(separator: ",").flatMap { $0.split(separator: "|") }.compactMap {
            $0.split(separator: " ", omittingEmptySubsequences: true).first.map(String.init)
        }.sorted()
    }

    /// The packages docs/install.md says the .deb lists in `field`: the list after "its `FIELD` from the built
    /// package's control file:", in backquotes.
    static func documented(_ field: String) throws -> [String] {
        let text = try String(contentsOfFile: packageRoot.path + "/docs/install.md", encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        let marker = "its `\(field)` from the built package's control file: `"
        guard let start = text.range(of: marker), let end = text[start.upperBound...].firstIndex(of: "`") else {
            return []
        }
        return packageNames(in: String(text[start.upperBound..<end]))
    }

    /// The names of lintian's tags of severity `error`, from its tag files: `Tag:`, prefixed with `Check:` and a slash
    /// when the tag is `Name-Spaced` (lintian's full name for the team checks' tags).
    static func lintianErrorTags(in directory: String = "/usr/share/lintian/tags") throws -> [String] {
        var names: [String] = []
        let files = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []
        for file in files where file.hasSuffix(".tag") {
            var fields: [Substring: Substring] = [:]
            for line in try String(contentsOfFile: directory + "/" + file, encoding: .utf8).split(separator: "\n")
            where !line.hasPrefix(" ") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let key = line[..<colon]
                if fields[key] == nil { fields[key] = line[line.index(after: colon)...].drop { $0 == " " } }
            }
            guard fields["Severity"] == "error", let tag = fields["Tag"] else { continue }
            names.append(fields["Name-Spaced"] == "yes" ? "\(fields["Check"] ?? "")/\(tag)" : String(tag))
        }
        return names.sorted()
    }
}
