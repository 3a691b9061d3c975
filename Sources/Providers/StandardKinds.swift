import Kind
import SystemKinds

extension KindRegistry {
    /// Every kind widgetd ships, in the order `widgetd kinds` lists them; the store-backed ones share
    /// `store`, which opens on first use. Reads `plugins:`, which names the plugins that add kinds to it.
    public static func standard(store: StoreAccess) -> KindRegistry {
        KindRegistry(
            [
                QuotesKind(),
                ClockKind(),
                MotivationsKind(store: store),
                TodosKind(store: store),
                ExecKind(),
            ] + SystemKindsCatalog.kinds(), sections: [PluginsSection()])
    }
}
