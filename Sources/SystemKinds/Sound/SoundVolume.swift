/// A sink's or source's volume, one value per channel, on libpulse's scale (`PA_VOLUME_NORM`, 0x10000, is 100 %; it
/// goes above for software amplification). Pure, so the arithmetic of the intents is tested without a server.
public struct SoundVolume: Sendable, Hashable {
    /// `PA_VOLUME_NORM`: the volume of 100 %.
    public static let norm: UInt32 = 0x10000
    /// `PA_VOLUME_MAX`: the most libpulse accepts.
    static let libpulseMaximum: UInt32 = UInt32.max / 2

    /// One value per channel, as `pa_cvolume.values` holds them.
    public var channels: [UInt32]

    public init(channels: [UInt32]) {
        self.channels = channels
    }

    /// The average of the channels in whole percent, rounded to nearest, as i3status's `volume` module writes it
    /// (`pa_cvolume_avg`, then `roundf` of the percentage).
    public var percent: Int {
        guard !channels.isEmpty else { return 0 }
        let average = channels.reduce(UInt64(0)) { $0 + UInt64($1) } / UInt64(channels.count)
        return Int((average * 100 + UInt64(Self.norm) / 2) / UInt64(Self.norm))
    }

    /// The loudest channel, which the steps move (`pa_cvolume_max`).
    var loudest: UInt32 { channels.max() ?? 0 }

    /// `percent` of 100 % on libpulse's scale.
    static func value(ofPercent percent: Int) -> UInt32 {
        UInt32(clamping: (Int64(max(percent, 0)) * Int64(norm) + 50) / 100)
    }

    /// Louder by `step` percent, the loudest channel at most `maximum` percent, and the balance kept (as
    /// `pa_cvolume_inc_clamp` does). A volume already above `maximum` (set by another tool) is left as it is, never
    /// lowered by a step up.
    public func raised(byPercent step: Int, maximumPercent maximum: Int) -> SoundVolume {
        let loudest = self.loudest
        let limit = min(Self.value(ofPercent: maximum), Self.libpulseMaximum)
        let target = min(UInt64(loudest) + UInt64(Self.value(ofPercent: step)), UInt64(limit))
        guard target > loudest else { return self }
        return scaled(to: UInt32(target))
    }

    /// Quieter by `step` percent, at least silent, the balance kept (`pa_cvolume_dec`).
    public func lowered(byPercent step: Int) -> SoundVolume {
        let loudest = self.loudest
        let decrement = Self.value(ofPercent: step)
        return scaled(to: loudest > decrement ? loudest - decrement : 0)
    }

    /// Every channel scaled so that the loudest is `target` (`pa_cvolume_scale`); a silent volume is raised evenly.
    private func scaled(to target: UInt32) -> SoundVolume {
        let loudest = self.loudest
        guard loudest > 0 else { return SoundVolume(channels: channels.map { _ in target }) }
        return SoundVolume(
            channels: channels.map { UInt32((UInt64($0) * UInt64(target) + UInt64(loudest) / 2) / UInt64(loudest)) })
    }
}
