/// The cores' current clock: cpufreq's `scaling_cur_freq` of each core, or, where the kernel has no cpufreq driver (a
/// virtual machine, some ARM boards), the `cpu MHz` lines of /proc/cpuinfo.
public enum CPUFrequency {
    /// The mean of the cores' frequencies in MHz; nil when neither source is there.
    static func averageMegahertz(in files: SystemFiles) -> Double? {
        let cores = files.entries(of: "/sys/devices/system/cpu").filter(isCoreDirectory)
        let scaled = cores.compactMap { core in
            files.text("/sys/devices/system/cpu/\(core)/cpufreq/scaling_cur_freq").flatMap(kilohertz)
        }
        if !scaled.isEmpty { return scaled.reduce(0, +) / Double(scaled.count) / 1000 }
        guard let cpuinfo = files.text("/proc/cpuinfo") else { return nil }
        let listed = megahertz(cpuinfo: cpuinfo)
        return listed.isEmpty ? nil : listed.reduce(0, +) / Double(listed.count)
    }

    /// `cpu0`, `cpu12`: a core's directory, not `cpufreq` or `cpuidle`.
    static func isCoreDirectory(_ name: String) -> Bool {
        name.hasPrefix("cpu") && name.count > 3 && name.dropFirst(3).allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// scaling_cur_freq's one number, in kHz.
    static func kilohertz(_ text: String) -> Double? {
        text.split(whereSeparator: \.isWhitespace).first.flatMap { Double($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Each `cpu MHz : 2596.150` line of /proc/cpuinfo.
    static func megahertz(cpuinfo text: String) -> [Double] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("cpu MHz"), let colon = line.firstIndex(of: ":") else { return nil }
            return line[line.index(after: colon)...].split(whereSeparator: \.isWhitespace).first.flatMap { Double($0) }
        }
    }

    /// `2.60 GHz`, as i3status-rust's cpu block writes it with two decimals.
    static func text(megahertz: Double) -> String {
        ByteFormat.fixed(megahertz / 1000, decimals: 2) + " GHz"
    }
}
