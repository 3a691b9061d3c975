import CPulse
import Kind
import Testing
import Timelines

@testable import SystemKinds

/// The sound kind's pure parts: the percentage of a `pa_cvolume`, the volume steps of the intents and what a widget
/// shows for each state of the server. The pushed path against a real server is in widgetdTests (`SoundEndToEndTests`).
@Suite("sound")
struct SoundTests {
    /// A `pa_cvolume` of `values`, made by libpulse's own calls.
    static func cvolume(_ values: [UInt32]) -> pa_cvolume {
        var volume = pa_cvolume()
        pa_cvolume_init(&volume)
        _ = pa_cvolume_set(&volume, UInt32(values.count), 0)
        withUnsafeMutableBytes(of: &volume.values) { raw in
            for (index, value) in values.enumerated() { raw.bindMemory(to: UInt32.self)[index] = value }
        }
        return volume
    }

    /// libpulse's percentage of a volume (`pa_volume_snprint`, as pactl prints each channel): "37%".
    static func libpulsePercent(_ value: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PA_VOLUME_SNPRINT_MAX))
        return String(String(cString: pa_volume_snprint(&buffer, buffer.count, value)).filter { $0 != " " })
    }

    @Test(arguments: [UInt32(0), 1, 655, 24248, 32768, 65536, 65535, 98304, 0x7fff_ffff])
    func aVolumeOfEqualChannelsIsTheSamePercentAsLibpulseWrites(_ value: UInt32) {
        let volume = SoundVolume(Self.cvolume([value, value]))
        #expect(volume.channels == [value, value])
        #expect("\(volume.percent)%" == Self.libpulsePercent(value))
    }

    @Test func unequalChannelsShowTheirAverageAsLibpulseComputesIt() {
        let cvolume = Self.cvolume([65536, 32768, 0])
        let volume = SoundVolume(cvolume)
        var copy = cvolume
        #expect(volume.percent == 50)
        #expect("\(volume.percent)%" == Self.libpulsePercent(pa_cvolume_avg(&copy)))
        // Back to libpulse as it came.
        var back = volume.cvolume
        #expect(pa_cvolume_equal(&back, &copy) != 0)
    }

    @Test func stepsKeepTheBalanceStopAtTheMaximumAndNeverLowerAVolumeAboveIt() {
        let balanced = SoundVolume(channels: [SoundVolume.norm / 2, SoundVolume.norm / 4])
        let up = balanced.raised(byPercent: 5, maximumPercent: 100)
        #expect(up.channels[0] == SoundVolume.value(ofPercent: 55))
        #expect(abs(Int(up.channels[1]) * 2 - Int(up.channels[0])) <= 1, "the balance, half: \(up.channels)")
        let nearTop = SoundVolume(channels: [SoundVolume.value(ofPercent: 98)])
        #expect(nearTop.raised(byPercent: 5, maximumPercent: 100).percent == 100)
        #expect(nearTop.raised(byPercent: 5, maximumPercent: 150).percent == 103)
        let amplified = SoundVolume(channels: [SoundVolume.value(ofPercent: 120)])
        #expect(amplified.raised(byPercent: 5, maximumPercent: 100) == amplified)
        #expect(amplified.lowered(byPercent: 5).percent == 115)
        let quiet = SoundVolume(channels: [SoundVolume.value(ofPercent: 3), SoundVolume.value(ofPercent: 3)])
        #expect(quiet.lowered(byPercent: 5).channels == [0, 0])
        #expect(quiet.lowered(byPercent: 5).raised(byPercent: 5, maximumPercent: 100).percent == 5)
    }

    static let sink = SoundDevice(
        name: "null", description: "Null Output", direction: .sink,
        volume: SoundVolume(channels: [SoundVolume.value(ofPercent: 37), SoundVolume.value(ofPercent: 37)]),
        muted: false)
    static let monitor = SoundDevice(
        name: "null.monitor", description: "Monitor of Null Output", direction: .source,
        volume: SoundVolume(channels: [SoundVolume.norm]), muted: true)
    static let server = SoundServerState.connected(
        defaultSink: "null", defaultSource: "null.monitor", devices: [sink, monitor])

    func text(
        _ state: SoundServerState?, device: String = "sink", format: String? = nil, muted: String? = nil,
        family: Family = .accessoryInline
    ) -> String {
        SoundPresentation.content(state, device: device, format: format, mutedFormat: muted, family: family).text
    }

    @Test func theVolumeIsShownWithTheFormatAndTheMutedOneWithItsOwn() {
        #expect(text(Self.server) == "♪ 37%")
        #expect(text(Self.server, format: "{volume} {description} {device}{muted}") == "37% Null Output null")
        #expect(text(Self.server, device: "source") == "♪ muted")
        #expect(
            text(Self.server, device: "source", muted: "{devicename}: {muted} ({volume})")
                == "Monitor of Null Output: muted (100%)")
        #expect(text(Self.server, device: "null.monitor", muted: "{device}") == "null.monitor")
        let small = SoundPresentation.content(
            Self.server, device: "sink", format: nil, mutedFormat: nil, family: .systemSmall)
        #expect(small.text == "▄ ♪ 37%" && small.shortText == "▄")
        #expect(small.percentage == 37)
        let muted = SoundPresentation.content(
            Self.server, device: "source", format: nil, mutedFormat: nil, family: .accessoryInline)
        #expect(muted.classes == ["muted"])
    }

    @Test func noServerAndNoDeviceAreStatesOfTheWidgetNotErrors() {
        let none = SoundPresentation.content(
            .noServer(reason: "Connection refused"), device: "sink", format: nil, mutedFormat: nil,
            family: .accessoryInline)
        #expect(none.text == "no sound server" && none.classes == ["absent"])
        #expect(none.tooltip == "no sound server: Connection refused")
        let empty = SoundServerState.connected(defaultSink: nil, defaultSource: nil, devices: [])
        #expect(text(empty) == "no sink")
        #expect(text(empty, device: "source") == "no source")
        let missing = SoundPresentation.content(
            Self.server, device: "hdmi", format: nil, mutedFormat: nil, family: .accessoryInline)
        #expect(missing.text == "no hdmi")
        #expect(missing.tooltip == "no 'hdmi'; there are: sink null, source null.monitor")
    }

    @Test func clicksAndScrollsHaveTheirIntentsAndCheckWarnsOfUnknownPlaceholders() {
        let kind = SoundKind()
        #expect(kind.defaultIntent(for: .left) == "mute")
        #expect(kind.defaultIntent(for: .scrollUp) == "volume_up")
        #expect(kind.defaultIntent(for: .scrollDown) == "volume_down")
        #expect(kind.defaultIntent(for: .right) == nil)
        var configuration = kind.defaultConfiguration
        configuration["format_muted"] = .string("{vol}")
        #expect(kind.referenceProblems(in: configuration).map(\.parameter) == ["format_muted"])
    }
}
