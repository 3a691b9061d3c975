import Foundation
import Glibc

/// The package this benchmark was built from: this file is Sources/widgetd-bench/Machine.swift in it.
let packageRoot =
    (((#filePath as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent as NSString)
    .deletingLastPathComponent

/// The widgetd binary: the one asked for, else the one beside this program, which is first brought up to date
/// (`swift build --product widgetd`, a second when nothing changed) so that the figures are the current sources'.
func locateWidgetd(_ given: String?, build: Bool) -> String {
    if let given {
        guard FileManager.default.isExecutableFile(atPath: given) else {
            complain("widgetd-bench: \(given) is not an executable\n")
            exit(1)
        }
        return given.hasPrefix("/") ? given : FileManager.default.currentDirectoryPath + "/" + given
    }
    let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let candidate = (me as NSString).deletingLastPathComponent + "/widgetd"
    if build, FileManager.default.fileExists(atPath: packageRoot + "/Package.swift") {
        let configuration = me.contains("/debug/") ? "debug" : "release"
        complain("widgetd-bench: swift build -c \(configuration) --product widgetd\n")
        let result = try? Child.run(
            ["swift", "build", "-c", configuration, "--product", "widgetd", "--package-path", packageRoot],
            environment: ProcessInfo.processInfo.environment, stdout: .null, stderr: Child.inherit)
        if result?.status != 0 { complain("widgetd-bench: the build failed\n") }
    }
    guard FileManager.default.isExecutableFile(atPath: candidate) else {
        complain(
            """
            widgetd-bench: no widgetd binary at \(candidate)
            build it first (swift build -c release --product widgetd), or run scripts/bench, which builds both

            """)
        exit(1)
    }
    return candidate
}

/// The example config the idle RSS row runs: the package's `config/widgets.yaml` unless one is given.
func locateExampleConfig(_ given: String?) -> String? {
    let path = given ?? packageRoot + "/config/widgets.yaml"
    return FileManager.default.isReadableFile(atPath: path) ? path : nil
}

func machineDescription() -> String {
    let cpuinfo = Proc.read("/proc/cpuinfo") ?? ""
    let model =
        cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
        .map { $0.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    var names = utsname()
    uname(&names)
    let release = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return "\(cores) cores (\(model)), Linux \(release)"
}

/// Online CPUs, as the scheduler sees them.
var cores: Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }

/// The size of an executable and whether it still carries its symbol table (`strip` removes `.symtab`).
struct BinaryInfo {
    var bytes: Int
    /// nil when the file is not a 64-bit little-endian ELF file this reader understands.
    var stripped: Bool?

    init(path: String) {
        var info = stat()
        bytes = stat(path, &info) == 0 ? Int(info.st_size) : 0
        stripped = Self.readStripped(path)
    }

    /// Reads the ELF section headers: a section of type `SHT_SYMTAB` (2) means the binary is not stripped.
    private static func readStripped(_ path: String) -> Bool? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 64)
        guard pread(descriptor, &header, 64, 0) == 64, header[0..<4] == [0x7f, 0x45, 0x4c, 0x46], header[4] == 2,
            header[5] == 1
        else { return nil }
        func little(_ bytes: ArraySlice<UInt8>) -> Int {
            bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
        }
        let offset = little(header[0x28..<0x30])
        let entrySize = little(header[0x3a..<0x3c])
        let count = little(header[0x3c..<0x3e])
        guard entrySize >= 8, count > 0, count < 1 << 16 else { return nil }
        var table = [UInt8](repeating: 0, count: entrySize * count)
        guard pread(descriptor, &table, table.count, off_t(offset)) == table.count else { return nil }
        let hasSymbols = (0..<count).contains { little(table[$0 * entrySize + 4..<$0 * entrySize + 8]) == 2 }
        return !hasSymbols
    }
}
