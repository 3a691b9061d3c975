import Scheduler

extension KindRegistry {
    /// Every kind widgetd ships, in the order `widgetd kinds` lists them.
    public static let standard = KindRegistry([
        QuotesKind(),
        ClockKind(),
    ])
}
