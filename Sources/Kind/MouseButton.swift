/// A mouse button as bars number them (i3bar and i3blocks' `BLOCK_BUTTON`: 1 left … 5 scroll down).
public enum MouseButton: String, Sendable, Hashable, CaseIterable {
    case left
    case middle
    case right
    case scrollUp = "scroll-up"
    case scrollDown = "scroll-down"

    public var number: Int {
        switch self {
        case .left: 1
        case .middle: 2
        case .right: 3
        case .scrollUp: 4
        case .scrollDown: 5
        }
    }

    public init?(number: Int) {
        guard let button = Self.allCases.first(where: { $0.number == number }) else { return nil }
        self = button
    }
}
