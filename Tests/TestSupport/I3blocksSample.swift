import Foundation
import Glibc

/// A user's i3blocks config with a section of each feature, and the i3blocks-contrib-style scripts it runs, written
/// for the migration tests: `widgetd import i3blocks` on it, the result run by the daemon, and by Debian's i3blocks.
public enum I3blocksSample {
    public static let scripts: [String: String] = [
        "cpu": "#!/bin/sh\necho \"42% $T_WARN\"\n",
        "iface": "#!/bin/sh\necho \"eth0 up\"\n",
        "units": "#!/bin/sh\necho \"<span foreground='#00ff00'>nginx</span> <b>ok</b>\"\n",
        // The pauses and the repeated line: i3blocks 1.4 asks for a signal on a persist block's pipe only after
        // starting it, and reads nothing until the next line when the first came before that (under load it can).
        "ticker":
            "#!/bin/sh\nsleep 0.5\necho \"tick 1\"\nsleep 1\necho \"tick 1\"\nwhile read -r line; do echo \"button $line\"; done\n",
        "volume":
            "#!/bin/sh\nf=\"$(dirname \"$0\")/volume.count\"; n=$(( $(cat \"$f\" 2>/dev/null || echo 0) + 1 )); echo $n > \"$f\"; echo \"vol $n\"\n",
    ]

    public static let config = """
        # A user's i3blocks config: global properties, then one section per feature.
        separator_block_width=12

        [cpu]
        command=./cpu
        label=CPU
        interval=5
        T_WARN=80

        [iface]
        command=./iface
        color=#00ff00
        interval=once
        instance=eth0

        [units]
        command=./units
        markup=pango
        interval=60

        [ticker]
        command=./ticker
        interval=persist

        [volume]
        command=./volume
        signal=10
        separator=false
        border=#ff0000

        [hello world]
        full_text=static text

        """

    /// A new directory with the scripts, executable, and `config` as i3blocks.config.
    public static func workspace(config: String = I3blocksSample.config) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for (name, body) in scripts {
            chmod(try directory.write(name, body), 0o755)
        }
        _ = try directory.write("i3blocks.config", config)
        return directory
    }
}
