import Testing

@testable import CLI

/// i3status's config syntax (libconfuse's) on tricky inputs, and the translation of each module.
@Suite("i3status config reading and translation")
struct I3statusConfigTests {
    @Test func escapesCommentsAndInstancesWithSpaces() {
        let config = I3statusConfig(
            parsing: """
                # a comment with { braces } and "quotes"
                general { colors = false  // another comment
                  color_bad = "#CC0000" /* a block
                  comment */ interval = 10 }
                order += "disk /mnt/my disk"
                order += 'tztime a "quoted" zone'
                order += wireless
                disk "/mnt/my disk" { format = "free: \\"%free\\"\\t# not a comment\\\\" }
                tztime 'a "quoted" zone' { format = '%H:%M \\' it' }
                wireless _first_ { format_up = "W: %essid" }
                """)
        #expect(config.problems == [])
        #expect(config.order == ["disk /mnt/my disk", "tztime a \"quoted\" zone", "wireless"])
        #expect(config.general?.value("colors") == "false")
        #expect(config.general?.value("color_bad") == "#CC0000")
        #expect(config.general?.value("interval") == "10")
        #expect(config.section("disk /mnt/my disk")?.value("format") == "free: \"%free\"\t# not a comment\\")
        #expect(config.section("tztime a \"quoted\" zone")?.value("format") == "%H:%M ' it")
        #expect(config.section("wireless _first_")?.value("format_up") == "W: %essid")
    }

    @Test func unclosedStringIsAProblemWithItsLine() {
        let config = I3statusConfig(parsing: "general {\n interval = 5\n}\norder += \"load\nload { }\n")
        #expect(config.problems.last == "line 4: string is not closed (a '\"' is missing)")
        #expect(config.general?.value("interval") == "5")
    }

    @Test func unknownModulesAndOptionsAreNamedAsComments() {
        let yaml = I3statusImport.translate(
            """
            general { colors = false color_degraded = "#AAAA00" markup = pango }
            order += "ipv6"
            order += "frobnicate"
            order += "cpu_usage"
            order += "cpu_temperature 0"
            cpu_usage { format = "all: %usage c0: %cpu0 %bogus" max_threshold = 80 degraded_threshold = 60
                        color_bad = "#FF0000" min_width = "100%" align = right separator = false }
            cpu_temperature 0 { format = "T: %degrees °C" max_threshold = 70 path = "/sys/x/temp1_input" }
            memory { format = "%used" }
            """, path: "/tmp/i3status.conf")
        #expect(yaml.contains("# general: colors = false is not translated"))
        #expect(yaml.contains("# general: color_degraded = #AAAA00 is not translated: warning is #FFFF00"))
        #expect(yaml.contains("# general: markup = pango is not translated"))
        #expect(yaml.contains("# memory is not in 'order': i3status does not show it; left out"))
        #expect(
            yaml.contains("  # order += \"ipv6\": no widgetd kind for ipv6 yet: a network widget's {ipv6} shows"))
        #expect(
            yaml.contains("  # order += \"frobnicate\": no widgetd kind for frobnicate yet: not an i3status module"))
        #expect(
            yaml.contains(
                """
                  cpu_usage:
                    kind: cpu
                    intent:
                      format: "all: {usage} c0: {cpu0} %bogus"
                      warning: 60
                      critical: 80
                """))
        #expect(yaml.contains("  # cpu_usage: %bogus in format has no counterpart in the cpu kind: it shows as typed"))
        #expect(yaml.contains("  # cpu_usage: color_bad = #FF0000 is not translated"))
        #expect(
            yaml.contains(
                """
                  cpu_temperature_0:
                    kind: temperature
                    intent:
                      format: "T: {degrees} °C"
                      sensor: thermal_zone0
                      critical: 70
                """))
        #expect(yaml.contains("  # cpu_temperature_0: path = /sys/x/temp1_input is not translated"))
        #expect(
            yaml.contains(
                "bars:\n  i3status:\n    - cpu_usage: {min_width: \"100%\", align: right, separator: false}\n"
                    + "    - cpu_temperature_0\n"))
    }

    @Test(arguments: [
        (
            "memory", "%percentage_used of %total, %percentage_available free",
            "{percentage_used} of {total}, {percentage_available} free"
        ),
        (
            "disk", "%percentage_used_of_avail %percentage_avail %avail",
            "{percentage_used_of_avail} {percentage_avail} {avail}"
        ),
        ("load", "%1min %5min %15min", "{1min} {5min} {15min}"),
    ])
    func placeholdersTakeTheLongestKnownName(module: String, format: String, expected: String) {
        let (translated, unknown) = I3statusModule.translatePlaceholders(
            format, known: I3statusModule.placeholders[module]!, perCore: false)
        #expect(translated == expected)
        #expect(unknown == [])
    }

    @Test func thresholdsOfWhatIsLeftBecomeThresholdsOfWhatIsUsed() {
        let yaml = I3statusImport.translate(
            """
            order += "memory"
            order += "disk /home"
            memory { threshold_degraded = "10%" threshold_critical = "5%" }
            disk "/home" { low_threshold = 20 threshold_type = percentage_free }
            """, path: "x")
        #expect(yaml.contains("      warning: 90\n      critical: 95\n"))
        #expect(
            yaml.contains(
                "  disk__home:\n    kind: disk\n    interval: 5s\n    intent:\n      format: \"{free}\"\n      path: \"/home\"\n      critical: 80\n"
            ))
    }

    /// A disk's `low_threshold` of a percentage type that is no percentage (a typo, `1e300`, `inf`) is a note, never an
    /// `Int` conversion that traps the import.
    @Test func aDiskThresholdThatIsNoPercentageIsANoteNotATrap() {
        let yaml = I3statusImport.translate(
            """
            order += "disk /"
            order += "disk /home"
            disk "/" { low_threshold = 1e300 threshold_type = percentage_free }
            disk "/home" { low_threshold = inf }
            """, path: "x")
        #expect(!yaml.contains("critical:"), "\(yaml)")
        #expect(yaml.contains("low_threshold = 1e300 of percentage_free is not translated"), "\(yaml)")
        #expect(yaml.contains("low_threshold = inf of percentage_avail is not translated"), "\(yaml)")
    }

    @Test func batteriesBecomeTheBatteryKindWithWhatHasNoCounterpartNamed() {
        let yaml = I3statusImport.translate(
            """
            order += "battery all"
            order += "battery 1"
            battery all { low_threshold = 30 threshold_type = percentage format_down = "" }
            battery 1 { format = "%status %remaining (%consumption)" low_threshold = 10 status_chr = "⚡" }
            """, path: "x")
        #expect(
            yaml.contains(
                "  battery:\n    kind: battery\n    intent:\n      format: \"{status} {percentage} {remaining}\"\n"
                    + "      format_down: \"\"\n      critical: 30\n"), "\(yaml)")
        #expect(
            yaml.contains(
                "  battery_1:\n    kind: battery\n    intent:\n      format: \"{status} {remaining} ({consumption})\"\n"
                    + "      battery: \"BAT1\"\n      format_down: \"No battery\"\n"), "\(yaml)")
        #expect(yaml.contains("# battery_1: low_threshold = 10 of threshold_type time is not translated"))
        #expect(yaml.contains("# battery_1: status_chr = ⚡ is not translated"))
        #expect(yaml.contains("# battery: %remaining and %emptytime show hours and minutes"))
        #expect(yaml.contains("bars:\n  i3status:\n    - battery\n    - battery_1\n"))
    }

    @Test func volumeBecomesTheSoundKindWithI3statusDefaultsAndPulseSinks() {
        let yaml = I3statusImport.translate(
            """
            order += "volume master"
            order += "volume named"
            order += "volume indexed"
            volume master { device = "pulse" }
            volume named {
                format = "♪ (%devicename): %volume %%%volume %bogus"
                format_muted = "♪ muted (%volume)"
                device = "pulse:alsa_output.pci-0000_00_1f.3.analog-stereo"
                color_degraded = "#AAAA00"
            }
            volume indexed { device = "pulse:1" }
            """, path: "x")
        #expect(
            yaml.contains(
                "  volume:\n    kind: sound\n    intent:\n      format: \"♪: {volume}\"\n"
                    + "      format_muted: \"♪: 0%\"\n  "), "\(yaml)")
        #expect(
            yaml.contains(
                "  volume_named:\n    kind: sound\n    intent:\n"
                    + "      format: \"♪ ({devicename}): {volume} %{volume} %bogus\"\n"
                    + "      format_muted: \"♪ muted ({volume})\"\n"
                    + "      device: \"alsa_output.pci-0000_00_1f.3.analog-stereo\"\n"), "\(yaml)")
        #expect(yaml.contains("  # volume_named: %bogus in format has no counterpart in the sound kind"))
        #expect(yaml.contains("  # volume_named: color_degraded = #AAAA00 is not translated"))
        #expect(
            yaml.contains(
                "  # volume_indexed: device = pulse:1 is not translated: the sound kind names a sink by its name"),
            "\(yaml)")
        #expect(yaml.contains("  volume_indexed:\n    kind: sound\n    intent:\n      format: \"♪: {volume}\"\n"))
        #expect(!yaml.contains("  # volume: device"), "the default sink needs no note: \(yaml)")
        #expect(yaml.contains("bars:\n  i3status:\n    - volume\n    - volume_named\n    - volume_indexed\n"))
    }

    /// ALSA's device and mixer have no counterpart: the widget shows the pulse server's default sink, and says so.
    @Test func alsaDevicesAndMixersAreNotesAndTheDefaultSinkIsShown() {
        let yaml = I3statusImport.translate(
            """
            order += "volume mic"
            volume mic { device = "hw:0" mixer = "Capture" mixer_idx = 1 }
            """, path: "x")
        #expect(
            yaml.contains(
                "  # volume_mic: device = hw:0, mixer = Capture, mixer_idx = 1 are ALSA's, not translated: widgetd "
                    + "speaks to the pulse server (PipeWire's included); the widget shows its default sink (device: "
                    + "source shows the default source)\n"), "\(yaml)")
        #expect(yaml.contains("  volume_mic:\n    kind: sound\n    intent:\n"), "\(yaml)")
        #expect(!yaml.contains("    device:"), "\(yaml)")
    }
}
