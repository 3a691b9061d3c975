import Basics

/// The i3blocks-contrib scripts that a system kind replaces, and what changes: `import i3blocks` names the kind beside
/// such a block, and leaves the block an `exec` widget (the script may have been changed, and its output is the user's
/// to keep or give up).
enum I3blocksContribScripts {
    /// By the script's file name: the kind, and what a user gives and gets by switching.
    static let replacements: [String: (kind: String, changes: String)] = [
        "cpu_usage": (
            "cpu", "read from /proc/stat in the daemon, no fork; format: '{usage}', T_WARN/T_CRIT as warning:/critical:"
        ),
        "memory": (
            "memory",
            "read from /proc/meminfo in the daemon; format: '{used}', '{percentage_used}', swap as '{swap_used}'"
        ),
        "disk": ("disk", "statvfs in the daemon, as df; path: for DIR, format: '{avail}', ALERT_LOW as critical:"),
        "load_average": (
            "load", "read from /proc/loadavg in the daemon; format: '{1min}', warning:/critical: as numbers"
        ),
        "temperature": ("temperature", "hwmon and thermal zones read directly, no `sensors`; sensor: names one"),
        "battery": ("battery", "pushed by the kernel's uevents, no polling; format: '{percentage} {remaining}'"),
        "battery2": ("battery", "pushed by the kernel's uevents, no polling; format: '{percentage} {remaining}'"),
        "batterybar": ("battery", "pushed by the kernel's uevents; the small families draw a gauge instead of a bar"),
        "backlight": ("backlight", "pushed by the kernel's uevents; scrolling to change it stays an on_click command"),
        "mediaplayer": (
            "music", "MPRIS signals over D-Bus, no playerctl; player: for the player, clicks play/pause and skip"
        ),
        "iface": ("network", "pushed by rtnetlink, no polling; interface: IFACE, format: '{interface} {ip}'"),
        "bandwidth": (
            "network", "/proc/net/dev sampled in the daemon at interval:; interface: INTERFACE, format: '{down} {up}'"
        ),
        "wifi": ("network", "rtnetlink, nl80211 and /proc/net/wireless; format: '{ssid} {quality}'"),
        "volume": (
            "sound",
            "pushed through libpulse by PulseAudio or pipewire-pulse, no amixer; STEP as step:; a left click "
                + "mutes, not the right"
        ),
        "volume-pulseaudio": (
            "sound",
            "pushed through libpulse, no pactl or SUBSCRIBE; format: '{volume} {description}', AUDIO_DELTA as "
                + "step:; a left click mutes, and no click changes the default sink"
        ),
    ]

    /// The note for a block whose command runs one of these scripts (`$SCRIPT_DIR/cpu_usage`,
    /// `/usr/share/i3blocks/$BLOCK_NAME` in section [memory]); nil for any other command.
    static func note(command: String, section: String) -> String? {
        guard let program = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first else { return nil }
        let script = Path.lastComponent(of: String(program).replacingAll("$BLOCK_NAME", with: section))
        if let replacement = replacements[script] {
            return "runs i3blocks-contrib's \(script): kind \(replacement.kind) replaces it (\(replacement.changes)); "
                + "left as it is, change it by hand"
        }
        return nil
    }
}
