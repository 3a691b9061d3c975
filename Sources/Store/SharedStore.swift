import Basics
import FoundationEssentials
import Glibc

/// The store the daemon and the CLI share: widgetd's counterpart of the seed's App Group container.
///
/// Opening migrates the file to the current schema, so everything that holds a `SharedStore` sees the tables it
/// expects. Sendable because `Database` is (see its thread rules).
public final class SharedStore: Sendable {
    /// The open connection.
    public let database: Database

    /// The store file's path.
    public var path: String { database.path }

    /// Opens (creating if needed) and migrates the store at `path`.
    public init(path: String) throws(StoreError) {
        database = try Database(path: path)
        try Migrations.migrate(database)
    }

    /// The motivations kept in this store.
    public var motivations: MotivationStore { MotivationStore(database: database) }

    /// The to-dos kept in this store.
    public var todos: TodoStore { TodoStore(database: database) }

    /// Where the store lives unless configured: `$XDG_DATA_HOME/widgetd/store.sqlite`, or
    /// `~/.local/share/widgetd/store.sqlite` when that variable is unset, empty or relative (the XDG Base Directory
    /// specification says to ignore a relative value).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return Path.appending("widgetd/store.sqlite", to: dataHome)
        }
        return Path.appending(".local/share/widgetd/store.sqlite", to: homeDirectory(environment: environment))
    }

    /// `$HOME` when it is absolute, else the password database's entry (`getpwuid`), as a shell would fall back.
    private static func homeDirectory(environment: [String: String]) -> String {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            return String(cString: directory)
        }
        return Path.homeDirectory()
    }
}
