import Foundation
import Kind
import Providers
import SystemKinds
import TestSupport

/// A /proc holding `stat` and `loadavg` as the test writes them, and the kinds that read it instead of the machine's
/// (`kinds`: quotes beside cpu and load), for a daemon run in the test (`DrivenDaemon`).
struct FakeProcTree {
    let directory: TemporaryDirectory
    var files: SystemFiles { SystemFiles(root: directory.url.path) }

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("proc"), withIntermediateDirectories: true)
        try stat(busy: 30, idle: 10)
        try load("0.25")
    }

    func stat(busy: Int, idle: Int) throws {
        try writeFile(
            "cpu  \(busy) 0 0 \(idle) 0 0 0 0 0 0\ncpu0 \(busy) 0 0 \(idle) 0 0 0 0 0 0\n",
            to: directory.url.path + "/proc/stat")
    }

    func load(_ load: String) throws {
        try writeFile("\(load) 0.50 0.75 1/100 4242\n", to: directory.url.path + "/proc/loadavg")
    }

    var kinds: [any WidgetKind] { [QuotesKind(), CPUKind(files: files), LoadKind(files: files)] }
}
