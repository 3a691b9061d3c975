/// A call's place in its widget's line (`WidgetKind.placeInLine`), taken when the daemon handed the call out: the kind
/// that gave it knows what it stands for. Given up when the last reference goes, so a call that never runs (an intent
/// refused before it starts) holds up no line.
public protocol PlaceInLine: AnyObject, Sendable {}
