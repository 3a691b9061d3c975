import Basics
import Config
import Formats
import FoundationEssentials
import Glibc
import Timelines

/// The record of each instance, cut down to its current entry, kept under `$XDG_STATE_HOME/widgetd/entries/` so a
/// restarted daemon paints what the bar showed before, not a placeholder, while the first timelines load.
///
/// Written when a timeline arrives and at a clean stop, never on an entry swap.
struct EntryMemory {
    let directory: String

    /// Creates the directory (0700) if needed.
    init(directory: String) throws {
        self.directory = directory
        try PrivateDirectory.make(directory)
    }

    /// Where `instance`'s record is kept; `StateFiles` writes and removes it.
    static func path(of instance: String, in directory: String) -> String {
        directory + "/" + instance + ".json"
    }

    /// What each named instance whose kind and family are unchanged showed at `now` by its kept record.
    func recall(_ instances: [WidgetInstance], at now: Date) -> [String: EntryContent] {
        var contents: [String: EntryContent] = [:]
        // The directory is listed once, so a first start with 10,000 widgets makes no 10,000 failed open() calls.
        guard let kept = try? FileManager.default.contentsOfDirectory(atPath: directory), !kept.isEmpty else {
            return contents
        }
        let keptNames = Set(kept)
        let decoder = JSONDecoder()
        for instance in instances where keptNames.contains(instance.name + ".json") {
            guard let record = InstanceRecord.read(from: Self.path(of: instance.name, in: directory), decoder: decoder),
                record.kind == instance.kind, record.family == instance.family
            else { continue }
            contents[instance.name] = record.keptContent(at: now)
        }
        return contents
    }
}
