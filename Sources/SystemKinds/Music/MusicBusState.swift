/// What the session bus shows of MPRIS players, as the music widgets see it.
public enum MusicBusState: Sendable, Equatable {
    /// No session bus to ask: none in the environment, it refused the connection, or it went away. The reason is
    /// for the tooltip; the listener tries again when the bus's socket appears, or on a timer where that cannot be
    /// watched (`MPRISListener`).
    case noBus(String)
    /// Connected; the MPRIS players on the bus, possibly none.
    case players([MusicPlayer])
}
