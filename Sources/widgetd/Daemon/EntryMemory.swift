import Foundation
import Scheduler

/// The last entry of each instance, kept under `$XDG_STATE_HOME/widgetd/entries/` so a restarted daemon
/// paints what the bar showed before, not a placeholder, while the first timelines load.
///
/// Written when a timeline arrives and at a clean stop, not on every entry swap: a clock would otherwise
/// write to disk every second.
struct EntryMemory {
    let directory: String

    /// Creates the directory (0700) if needed.
    init(directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func remember(_ entry: CanonicalEntry) throws {
        try AtomicFile.write(entry.encoded(), to: directory + "/" + entry.instance + ".json")
    }

    func forget(_ instance: String) {
        unlink(directory + "/" + instance + ".json")
    }

    /// The remembered content of each named instance whose kind and family are unchanged.
    func recall(_ instances: [WidgetInstance]) -> [String: EntryContent] {
        var contents: [String: EntryContent] = [:]
        let decoder = JSONDecoder()
        for instance in instances {
            guard let data = FileManager.default.contents(atPath: directory + "/" + instance.name + ".json"),
                let entry = try? decoder.decode(CanonicalEntry.self, from: data),
                entry.kind == instance.kind, entry.family == instance.family
            else { continue }
            contents[instance.name] = entry.content
        }
        return contents
    }
}
