import FoundationEssentials
import Glibc
import Timelines

/// Which colours a bar gets for an entry, so its text always reads.
///
/// An entry's foreground was chosen for its background (a motivation's black text on its light `#D3D3D3`), or, with
/// no background, for the bar's own. So a foreground goes out only together with the background it was chosen for,
/// and a background without a foreground gets the black or white that reads on it. Where a bar drops backgrounds
/// (i3blocks 1.4 passes on neither its raw lines' fourth line nor an i3bar block's `background`), the text lands on
/// the bar's default background, i3bar's black: there the background is not sent at all (i3blocks 1.5 would show it,
/// under a colour not chosen for it), and the colour sent is the first of the entry's foreground and background that
/// reads on black, or none (the bar's default white text).
public enum Readability {
    /// i3bar's and swaybar's default status line background.
    public static let defaultBarBackground = Color(red: 0, green: 0, blue: 0)
    /// WCAG's minimum contrast for body text (AA): a status bar's text is small.
    public static let minimumContrast = 4.5

    /// The colours to send: `backgroundsShow` says whether the bar shows a block's background.
    public static func colors(of content: EntryContent, backgroundsShow: Bool) -> (
        foreground: Color?, background: Color?
    ) {
        guard let background = content.background else { return (content.foreground, nil) }
        if backgroundsShow {
            return (content.foreground ?? Color.readableText(on: background), background)
        }
        let readable = [content.foreground, background].compactMap(\.self).first {
            $0.contrast(with: defaultBarBackground) >= minimumContrast
        }
        return (readable, nil)
    }
}

extension Color {
    /// WCAG 2 relative luminance, 0 (black) to 1 (white); alpha is ignored.
    public var luminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.039_28 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2 contrast ratio with `other`, 1 (none) to 21 (black on white).
    public func contrast(with other: Color) -> Double {
        let (light, dark) = luminance > other.luminance ? (luminance, other.luminance) : (other.luminance, luminance)
        return (light + 0.05) / (dark + 0.05)
    }

    /// Black or white, whichever contrasts more with `background`.
    public static func readableText(on background: Color) -> Color {
        let black = Color(red: 0, green: 0, blue: 0)
        let white = Color(red: 255, green: 255, blue: 255)
        return background.contrast(with: black) >= background.contrast(with: white) ? black : white
    }
}
