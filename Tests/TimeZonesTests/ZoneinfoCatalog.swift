import Foundation

/// Every zone the system's tzdata holds: the TZif files under `/usr/share/zoneinfo`, by their names relative
/// to it, links (symbolic links, as Debian installs `US/Eastern`) included, leaving out `posix/` and `right/`
/// (copies of the same zones, the latter counting leap seconds) and the tables and other files that are not
/// TZif.
enum ZoneinfoCatalog {
    static let directory = "/usr/share/zoneinfo"

    static let identifiers: [String] = {
        let root = URL(fileURLWithPath: directory)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            return []
        }
        var names: [String] = []
        for case let url as URL in walker {
            let name = String(url.path.dropFirst(root.path.count + 1))
            // `localtime` there is the system's zone, not one of tzdata's.
            if name == "localtime" { continue }
            if name == "posix" || name == "right" {
                walker.skipDescendants()
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                let handle = FileHandle(forReadingAtPath: url.path)
            else { continue }
            let magic = handle.readData(ofLength: 4)
            try? handle.close()
            if magic == Data("TZif".utf8) { names.append(name) }
        }
        return names.sorted()
    }()
}
