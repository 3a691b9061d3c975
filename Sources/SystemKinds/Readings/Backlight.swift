import Basics

/// One backlight of /sys/class/backlight: the brightness the hardware has now against its most.
public struct Backlight: Sendable, Hashable {
    public var name: String
    public var brightness: Int
    public var maximum: Int

    public init(name: String, brightness: Int, maximum: Int) {
        self.name = name
        self.brightness = brightness
        self.maximum = maximum
    }

    /// The backlight from the texts of its `actual_brightness` (what the hardware shows; `brightness` is only what
    /// was asked for) and `max_brightness`, or nil when either is no whole number or the maximum is not positive.
    public init?(name: String, actualBrightness: String, maxBrightness: String) {
        guard let brightness = Int(actualBrightness.trimmingWhitespace()),
            let maximum = Int(maxBrightness.trimmingWhitespace()), maximum > 0
        else { return nil }
        self.init(name: name, brightness: min(max(brightness, 0), maximum), maximum: maximum)
    }

    /// 0–100, as brightnessctl and waybar round it.
    public var percentage: Int { Int((Double(brightness) / Double(maximum) * 100).rounded()) }
}
