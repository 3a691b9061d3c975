internal import CPulse

extension SoundVolume {
    /// The channels of libpulse's `pa_cvolume` (its first `channels` values).
    init(_ volume: pa_cvolume) {
        var volume = volume
        let count = min(Int(volume.channels), Int(PA_CHANNELS_MAX))
        channels = withUnsafeBytes(of: &volume.values) { Array($0.bindMemory(to: UInt32.self).prefix(count)) }
    }

    /// As libpulse's `pa_cvolume`, for `pa_context_set_sink_volume_by_name`.
    var cvolume: pa_cvolume {
        var volume = pa_cvolume()
        let count = min(channels.count, Int(PA_CHANNELS_MAX))
        volume.channels = UInt8(count)
        withUnsafeMutableBytes(of: &volume.values) { raw in
            let values = raw.bindMemory(to: UInt32.self)
            for index in 0..<count { values[index] = channels[index] }
        }
        return volume
    }
}
