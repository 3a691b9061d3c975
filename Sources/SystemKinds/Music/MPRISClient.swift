import FoundationEssentials
import Glibc

/// What the music kind asks of and hears from the session bus, over a `DBusConnection`: the players there
/// (`ListNames`, `GetNameOwner`, `GetAll`), and the signals that change them (`NameOwnerChanged`,
/// `PropertiesChanged`, `Seeked`). Used by the listener's thread, and once by `preview`.
enum MPRISClient {
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    static let busInterface = "org.freedesktop.DBus"

    /// How long a call waits for its answer: a player that hangs holds up the music widgets this long, not for ever.
    static let callTimeout: Int32 = 1000
    /// The most players followed: the session bus is the user's, but a program that claims names without end would
    /// otherwise grow this without end.
    static let playerLimit = 32

    /// The signals the listener hears: every player's property changes and seeks, and MPRIS names coming and going.
    static let matchRules = [
        "type='signal',interface='\(propertiesInterface)',member='PropertiesChanged',path='\(objectPath)'",
        "type='signal',interface='\(playerInterface)',member='Seeked',path='\(objectPath)'",
        "type='signal',sender='\(busInterface)',interface='\(busInterface)',member='NameOwnerChanged',"
            + "arg0namespace='org.mpris.MediaPlayer2'",
    ]

    /// Connects to the session bus the environment names and asks for the signals; the error says why not.
    static func connect(environment: (String) -> String? = Self.environment) -> Result<
        DBusConnection, DBusConnectionError
    > {
        guard
            let address = SessionBusAddress.resolve(
                environment: environment, socketExists: { access($0, F_OK) == 0 })
        else {
            return .failure(DBusConnectionError("DBUS_SESSION_BUS_ADDRESS is not set"))
        }
        do {
            let connection = try DBusConnection(address: address)
            for rule in matchRules { try connection.addMatch(rule) }
            return .success(connection)
        } catch {
            return .failure(error)
        }
    }

    static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Every MPRIS player on the bus now, by bus name, read at `now`.
    static func players(on connection: DBusConnection, at now: Date) -> [String: MusicPlayer] {
        guard
            let message = DBusMessage(
                call: "ListNames", of: busInterface, on: "/org/freedesktop/DBus", at: busInterface),
            let reply = connection.call(message, timeout: callTimeout)
        else { return [:] }
        let names = reply.arguments.first?.strings ?? []
        var players: [String: MusicPlayer] = [:]
        for name in names.filter({ $0.hasPrefix(MusicPlayer.busNamePrefix) }).sorted().prefix(playerLimit) {
            players[name] = player(named: name, owner: nil, on: connection, at: now)
        }
        return players
    }

    /// The player owning `name`, with all its properties; `owner` when the caller knows it already.
    static func player(named name: String, owner: String?, on connection: DBusConnection, at now: Date)
        -> MusicPlayer?
    {
        let owner =
            owner
            ?? DBusMessage(
                call: "GetNameOwner", of: busInterface, on: "/org/freedesktop/DBus", at: busInterface,
                arguments: [name]
            ).flatMap { connection.call($0, timeout: callTimeout) }?.arguments.first?.string
        guard let owner else { return nil }
        var player = MusicPlayer(busName: name, owner: owner, lastChange: now)
        if let properties = getAll(name, on: connection) { player.apply(properties, at: now) }
        return player
    }

    /// `GetAll` of the player interface.
    static func getAll(_ name: String, on connection: DBusConnection) -> [String: DBusValue]? {
        DBusMessage(call: "GetAll", of: propertiesInterface, on: objectPath, at: name, arguments: [playerInterface])
            .flatMap { connection.call($0, timeout: callTimeout) }?.arguments.first?.stringKeyed
    }

    /// `Get` of the player's `Position`, in microseconds: MPRIS sends no signal as it moves, so it is read whenever the
    /// status or the track changes.
    static func position(of name: String, on connection: DBusConnection) -> Int64? {
        DBusMessage(
            call: "Get", of: propertiesInterface, on: objectPath, at: name, arguments: [playerInterface, "Position"]
        ).flatMap { connection.call($0, timeout: callTimeout) }?.arguments.first?.integer
    }

    /// Calls one of the player's methods (`PlayPause`, `Next`, `Previous`) without waiting for it.
    static func call(_ method: String, on name: String, over connection: DBusConnection) {
        if let message = DBusMessage(call: method, of: playerInterface, on: objectPath, at: name) {
            connection.send(message)
        }
    }

    /// Takes in one message the bus sent; true when it changed a player.
    static func handle(
        _ message: DBusMessage, players: inout [String: MusicPlayer], on connection: DBusConnection, at now: Date
    ) -> Bool {
        if message.isSignal("NameOwnerChanged", of: busInterface), message.sender == busInterface {
            let names = message.arguments.compactMap(\.string)
            guard names.count == 3, names[0].hasPrefix(MusicPlayer.busNamePrefix) else { return false }
            if names[2].isEmpty {
                return players.removeValue(forKey: names[0]) != nil
            }
            guard players[names[0]] != nil || players.count < playerLimit else { return false }
            players[names[0]] = player(named: names[0], owner: names[2], on: connection, at: now)
            return true
        }
        guard message.path == objectPath, let sender = message.sender else { return false }
        let arguments = message.arguments
        let named = players.filter { $0.value.owner == sender }.keys
        guard !named.isEmpty else { return false }
        if message.isSignal("PropertiesChanged", of: propertiesInterface) {
            guard arguments.first?.string == playerInterface,
                let changed = arguments.count > 1 ? arguments[1].stringKeyed : nil
            else { return false }
            let invalidated = arguments.count > 2 ? arguments[2].strings ?? [] : []
            for name in named {
                players[name]?.apply(changed, at: now)
                if !invalidated.isEmpty, let properties = getAll(name, on: connection) {
                    players[name]?.apply(properties, at: now)
                } else if changed["Position"] == nil,
                    changed["PlaybackStatus"] != nil || changed["Metadata"] != nil || changed["Rate"] != nil,
                    let position = position(of: name, on: connection)
                {
                    players[name]?.seek(to: position, at: now)
                }
            }
            return true
        }
        if message.isSignal("Seeked", of: playerInterface), let position = arguments.first?.integer {
            for name in named { players[name]?.seek(to: position, at: now) }
            return true
        }
        return false
    }
}
