/// Which instances a reload asks for, like WidgetKit's `reloadAllTimelines()` and `reloadTimelines(ofKind:)`, plus
/// one instance by name.
///
/// The one type for every reload: what `widgetd reload` names, what the control line `reload all | reload kind KIND |
/// reload NAME` carries, and what the engine matches against its instances (`Engine.request(_:now:)`). It lives here,
/// in the lowest layer that all three reach, so that none of them translates it.
public enum ReloadTarget: Sendable, Hashable {
    /// Every instance.
    case all
    /// Every instance of one kind.
    case kind(String)
    /// One instance, by its name.
    case instance(String)
}
