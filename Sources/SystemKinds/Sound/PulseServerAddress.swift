/// Where the sound server's socket will be, from the environment as libpulse finds it, so that a server that is not
/// running yet can be waited for by inotify on its path (`SocketPathWatch`) rather than on a timer.
enum PulseServerAddress {
    /// The sockets libpulse connects to: `PULSE_SERVER`'s, when it names only local sockets; else the user's,
    /// `native` in libpulse's runtime directory (`pa_runtime_path`): `$PULSE_RUNTIME_PATH`, else
    /// `$XDG_RUNTIME_DIR/pulse`. Nil when there is nothing a file's appearance would announce (a remote server, an
    /// empty or relative directory, neither variable set: libpulse then falls back to a directory under `$HOME` that
    /// names the machine id); the connection then tries again on a timer.
    ///
    /// Not read: client.conf's `default-server` and the X display's `PULSE_SERVER` property, which `PULSE_SERVER`
    /// overrides; and the system-wide server's `/var/run/pulse/native`, which libpulse tries after the user's and which
    /// is started at boot, long before a bar.
    static func socketPaths(environment: (String) -> String?) -> [String]? {
        if let server = environment("PULSE_SERVER") { return socketPaths(ofServer: server) }
        let runtime: String
        if let directory = environment("PULSE_RUNTIME_PATH") {
            runtime = directory
        } else if let directory = environment("XDG_RUNTIME_DIR"), !directory.isEmpty {
            runtime = directory + "/pulse"
        } else {
            return nil
        }
        guard !runtime.isEmpty, let path = SocketPathWatch.normalized(runtime + "/native") else { return nil }
        return [path]
    }

    /// The socket paths of a server string (`PULSE_SERVER`'s: addresses separated by white space, tried in turn) when
    /// every one is a local socket, `unix:PATH` or a bare absolute path. Nil when one is anything else (`tcp:HOST`, a
    /// host name, a `{machine-id}` prefix, a relative path) or there is none.
    static func socketPaths(ofServer server: String) -> [String]? {
        var paths: [String] = []
        for address in server.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            let path = address.hasPrefix("unix:") ? address.dropFirst("unix:".count) : address
            guard let normalized = SocketPathWatch.normalized(String(path)) else { return nil }
            paths.append(normalized)
        }
        return paths.isEmpty ? nil : paths
    }
}
