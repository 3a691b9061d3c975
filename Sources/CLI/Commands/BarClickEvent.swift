import Basics
import FoundationEssentials

/// One click as i3bar and swaybar report it on a status command's standard input, after the opening `[`: one JSON
/// object per line, every line after the first starting with `,`.
///
/// i3bar's protocol: `name` and `instance` say which block (widgetd's blocks are `"name":"widgetd"` with the widget as
/// `instance`); `button`; `modifiers` (such as `["Shift","Mod4"]`); `x`, `y` on the screen; `relative_x`,
/// `relative_y` within the block; `output_x`, `output_y` within the output; `width`, `height` of the block.
struct BarClickEvent: Decodable, Equatable {
    var name: String?
    var instance: String?
    var button: Int
    var modifiers: [String]
    var x: Int?
    var y: Int?
    var relativeX: Int?
    var relativeY: Int?
    var outputX: Int?
    var outputY: Int?
    var width: Int?
    var height: Int?

    enum CodingKeys: String, CodingKey {
        case name, instance, button, modifiers, x, y, width, height
        case relativeX = "relative_x"
        case relativeY = "relative_y"
        case outputX = "output_x"
        case outputY = "output_y"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try? container.decodeIfPresent(String.self, forKey: .name)
        instance = try? container.decodeIfPresent(String.self, forKey: .instance)
        button = try container.decode(Int.self, forKey: .button)
        modifiers = (try? container.decodeIfPresent([String].self, forKey: .modifiers)) ?? []
        // Positions are integers in the protocol; a bar that sends fractions (sway scales them) gets them cut.
        let number = { (key: CodingKeys) -> Int? in
            if let value = try? container.decodeIfPresent(Int.self, forKey: key) { return value }
            guard let value = try? container.decodeIfPresent(Double.self, forKey: key), value.isFinite,
                abs(value) < 1e9
            else { return nil }
            return Int(value)
        }
        x = number(.x)
        y = number(.y)
        relativeX = number(.relativeX)
        relativeY = number(.relativeY)
        outputX = number(.outputX)
        outputY = number(.outputY)
        width = number(.width)
        height = number(.height)
    }

    /// The click on one line of the stream; nil for the opening `[`, an empty line or anything that is no click.
    static func parse(line: some StringProtocol) -> BarClickEvent? {
        var text = line.trimmingWhitespace()[...]
        if text.hasPrefix(",") { text = text.dropFirst().drop(while: \.isWhitespace) }
        guard text.first == "{" else { return nil }
        return try? JSONDecoder().decode(BarClickEvent.self, from: Data(text.utf8))
    }
}
