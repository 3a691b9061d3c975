import Kind

/// The system kinds of this module, in the order `widgetd kinds` lists them.
public enum SystemKindsCatalog {
    public static func kinds(files: SystemFiles = .standard) -> [any WidgetKind] {
        [
            CPUKind(files: files), MemoryKind(files: files), LoadKind(files: files), DiskKind(files: files),
            TemperatureKind(files: files), UptimeKind(files: files), BatteryKind(files: files),
            BacklightKind(files: files), NetworkKind(files: files), SoundKind(), MusicKind(),
        ]
    }
}
