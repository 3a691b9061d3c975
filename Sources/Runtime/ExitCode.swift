/// Process exit codes (BSD sysexits for usage).
public enum ExitCode {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
    /// `list`, `status`: the daemon is not running, so nothing listed is current (as `systemctl status` and LSB init
    /// scripts use 3).
    public static let notRunning: Int32 = 3
}
