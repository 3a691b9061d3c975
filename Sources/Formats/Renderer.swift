import Text
import Timelines

/// Turns an entry into the exact contents of an output file for one bar format.
///
/// Text is first made single-line by `TextSanitizer`, then fitted to the family's width budget, then escaped for the
/// format, so escapes never count against the budget and never get cut in half. Every file ends in "\n", as the bars
/// read their input as lines (i3blocks 1.5 ignores a last line without one); only i3blocks' raw format has several.
///
/// Dynamic dates are not resolved here, as rendering takes no clock: pass `content.resolved(at:)`.
public enum Renderer {
    /// The i3bar `name` of every widgetd block.
    ///
    /// i3bar identifies a clicked block only by `name` and `instance`, which it echoes in the click event. widgetd
    /// follows the i3blocks convention of the program as `name` and what it shows as `instance` (i3blocks-contrib's
    /// `[volume]` with `instance=Master`): `name` is "widgetd" and `instance` the widget instance's name. A click
    /// forwarder then knows from `name` that the click is widgetd's and from `instance` which widget it hit, even on
    /// a bar that mixes widgetd with other blocks. i3blocks 1.5 matches a click against the block's current
    /// properties, which this output sets, so clicks still reach a block whose section has another name; naming the
    /// section `[widgetd]` with `instance=<name>` keeps even i3blocks 1.4, which matched the configured values, right.
    public static let blockName = "widgetd"

    /// The file contents for `content` in `format`, within `family`'s width budgets.
    ///
    /// `markup` says the bar parses the text as pango markup: i3blocks with `markup=pango`, or i3bar, which is then
    /// told `"markup":"pango"`. The text is pango-escaped for it so that it still shows literally. waybar always parses
    /// markup, so its text is always escaped; the other formats have no markup and ignore the flag.
    ///
    /// Colours go through `Readability`: the `i3blocks` and `i3bar` files are read through i3blocks, which drops
    /// backgrounds (1.4), so they carry no background and only a colour that reads on i3bar's black; polybar and tmux
    /// show backgrounds, and `widgetd bar` passes `backgroundsShow: true` for its i3bar blocks.
    ///
    /// `layout` (from a bar's `bars:` entry) overrides the entry's i3bar layout keys (`min_width`, `align`,
    /// `separator`, `separator_block_width`) where it sets them; it changes nothing about the text.
    public static func render(
        _ content: EntryContent, family: Family, format: OutputFormat, instance: String, markup: Bool = false,
        backgroundsShow: Bool? = nil, layout: BlockProperties? = nil
    ) -> String {
        String(
            decoding: renderedBytes(
                content, family: family, format: format, instance: instance, markup: markup,
                backgroundsShow: backgroundsShow, layout: layout),
            as: UTF8.self)
    }

    /// `render(_:family:format:instance:markup:backgroundsShow:layout:)` as the file's bytes: what the daemon writes at
    /// every swap, without making a `String` of them and bytes of it again.
    public static func renderedBytes(
        _ content: EntryContent, family: Family, format: OutputFormat, instance: String, markup: Bool = false,
        backgroundsShow: Bool? = nil, layout: BlockProperties? = nil
    ) -> [UInt8] {
        var text = fittedText(of: content, family: family)
        if text.isMarkup, !takesMarkup(format, markup: markup) {
            text = text.plain()
        }
        var content = content
        // A plain file is the text alone: its colours and layout would be worked out for nothing, and setting them
        // copies the entry's box of rarely set fields, which widgets showing the same quote share.
        if format != .plain {
            let shows = backgroundsShow ?? (format != .i3blocks && format != .i3bar)
            if let layout { content.block = (content.block ?? BlockProperties()).laidOut(by: layout) }
            (content.foreground, content.background) = Readability.colors(of: content, backgroundsShow: shows)
        }
        // The writer keeps these bytes until the file's next write, one array per file: room reserved and not used
        // would stay allocated with it, for every instance (docs/PERFORMANCE.md, "Memory per instance"). A plain file's
        // size is known.
        var output: [UInt8] = []
        output.reserveCapacity(
            format == .plain ? text.full.utf8.count + 1 : 2 * (text.full.utf8.count + text.short.utf8.count) + 160)
        switch format {
        case .plain:
            output.append(contentsOf: text.full.utf8)
        case .i3blocks:
            appendI3blocks(text, content: content, markup: markup, to: &output)
        case .i3bar:
            appendI3bar(text, content: content, instance: instance, markup: markup, to: &output)
        case .waybar:
            appendWaybar(text, content: content, to: &output)
        case .polybar:
            appendPolybar(text, content: content, to: &output)
        case .tmux:
            appendTmux(text, content: content, to: &output)
        }
        output.append(UInt8(ascii: "\n"))
        guard output.capacity > output.count + 32 else { return output }
        return [UInt8](unsafeUninitializedCapacity: output.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: output)
        }
    }

    /// The full and short text a bar shows: sanitized, then fitted to `family`.
    private static func fittedText(of content: EntryContent, family: Family) -> FittedText {
        var clean = content
        // Dimmed parts are sanitized one by one, so where each starts and ends is known in the clean text.
        let (text, dimmed) = sanitized(content.text, dimming: content.dimmedRanges)
        clean.text = text
        // A short text of nothing but controls would blank the widget when the bar shortens it; use the full one.
        // Set only when there is one: setting it copies the entry's box of rarely set fields.
        if let shortText = content.shortText {
            clean.shortText = Optional(TextSanitizer.singleLine(shortText)).flatMap { $0.isEmpty ? nil : $0 }
        }
        if let block = content.block { return blockText(clean, block: block, family: family) }
        var fitted = clean.fitted(to: family)
        guard !dimmed.isEmpty else { return fitted }
        // A cut keeps a prefix of the text and adds "…", which joins the run it ends.
        let kept = fitted.full == text ? text.utf8.count : fitted.full.utf8.count - DisplayWidth.ellipsis.utf8.count
        let end = fitted.full.utf8.count
        fitted.dimmed = dimmed.compactMap { range in
            guard range.lowerBound < kept else { return nil }
            return range.lowerBound..<(range.upperBound >= kept ? end : range.upperBound)
        }
        return fitted
    }

    /// `text` made single-line, and its dimmed character ranges as UTF-8 offsets into the result. The text is cleaned
    /// whole, as without ranges, so dimming never changes what any format shows; ranges out of order, overlapping or
    /// past the end are dropped or cut.
    private static func sanitized(_ text: String, dimming ranges: [Range<Int>]) -> (String, [Range<Int>]) {
        guard !ranges.isEmpty else { return (TextSanitizer.singleLine(text), []) }
        // Character offsets to UTF-8 offsets.
        var utf8Offsets = [0]
        for character in text { utf8Offsets.append(utf8Offsets[utf8Offsets.count - 1] + character.utf8.count) }
        let characterCount = utf8Offsets.count - 1
        var bounds: [Int] = []
        for range in ranges {
            let lower = max(range.lowerBound, 0)
            let upper = min(range.upperBound, characterCount)
            guard lower < upper, bounds.isEmpty || utf8Offsets[lower] >= bounds[bounds.count - 1] else { continue }
            bounds += [utf8Offsets[lower], utf8Offsets[upper]]
        }
        let (clean, mapped) = TextSanitizer.singleLine(text, mapping: bounds)
        var dimmed: [Range<Int>] = []
        for pair in stride(from: 0, to: mapped.count - 1, by: 2) where mapped[pair] < mapped[pair + 1] {
            dimmed.append(mapped[pair]..<mapped[pair + 1])
        }
        return (clean, dimmed)
    }

    /// The full text as pango markup: each run escaped, dimmed runs in a half-transparent span.
    private static func pangoMarkup(_ text: FittedText) -> String {
        var output: [UInt8] = []
        for run in text.runs {
            if run.dimmed { output.append(contentsOf: "<span alpha='50%'>".utf8) }
            Escaping.appendPango(String(run.text), to: &output)
            if run.dimmed { output.append(contentsOf: "</span>".utf8) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// i3blocks' raw format: full_text, short_text, color and background lines, in the i3bar protocol's key order.
    ///
    /// Lines after the last one with a value are left out, as i3blocks then keeps the block's configured value; a
    /// background without a colour still needs an empty colour line to stay fourth. The raw format cannot say urgent
    /// (i3blocks takes that from a command's exit code 33), so urgent entries need the `i3bar` format.
    private static func appendI3blocks(
        _ text: FittedText, content: EntryContent, markup: Bool, to output: inout [UInt8]
    ) {
        let appendText = { (line: String, output: inout [UInt8]) in
            if markup, !text.isMarkup {
                Escaping.appendPango(line, to: &output)
            } else {
                output.append(contentsOf: line.utf8)
            }
        }
        if markup, !text.dimmed.isEmpty {
            output.append(contentsOf: pangoMarkup(text).utf8)
        } else {
            appendText(text.full, &output)
        }
        guard !text.short.isEmpty || content.foreground != nil || content.background != nil else { return }
        output.append(UInt8(ascii: "\n"))
        appendText(text.short, &output)
        guard content.foreground != nil || content.background != nil else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: (content.foreground?.hex ?? "").utf8)
        guard let background = content.background else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: background.hex.utf8)
    }

    /// One i3bar block object on one line, for i3blocks' `format=json` and swaybar.
    ///
    /// A block with a dimmed part is always sent as pango markup (`"markup":"pango"`, the rest escaped): i3bar and
    /// swaybar parse markup per block, and without it they can only colour a block whole, so a done to-do beside open
    /// ones would look open.
    private static func appendI3bar(
        _ text: FittedText, content: EntryContent, instance: String, markup: Bool, to output: inout [UInt8]
    ) {
        output.append(contentsOf: #"{"full_text":"#.utf8)
        let markup = markup || text.isMarkup || !text.dimmed.isEmpty
        if markup, !text.dimmed.isEmpty {
            Escaping.appendJSONString(pangoMarkup(text), to: &output)
        } else {
            Escaping.appendJSONString(text.full, pango: markup && !text.isMarkup, to: &output)
        }
        // A block-like entry has a short text only when its provider gave one, as an i3blocks script's block.
        if content.block == nil || !text.short.isEmpty {
            output.append(contentsOf: #","short_text":"#.utf8)
            Escaping.appendJSONString(text.short, pango: markup && !text.isMarkup, to: &output)
        }
        if let foreground = content.foreground {
            output.append(contentsOf: #","color":"#.utf8)
            Escaping.appendJSONString(foreground.hex, to: &output)
        }
        if let background = content.background {
            output.append(contentsOf: #","background":"#.utf8)
            Escaping.appendJSONString(background.hex, to: &output)
        }
        // Written either way, so the block states its urgency outright instead of leaving it to the bar's default.
        output.append(contentsOf: (content.state == .urgent ? #","urgent":true"# : #","urgent":false"#).utf8)
        output.append(contentsOf: #","name":"#.utf8)
        Escaping.appendJSONString(blockName, to: &output)
        output.append(contentsOf: #","instance":"#.utf8)
        Escaping.appendJSONString(instance, to: &output)
        if let block = content.block { appendI3barProperties(block, to: &output) }
        output.append(contentsOf: (markup ? #","markup":"pango"}"# : #","markup":"none"}"#).utf8)
    }

    /// A waybar custom module's `return-type: json` object.
    ///
    /// waybar hands `text`, `alt` (through `{alt}` in `format`) and `tooltip` to GTK as pango markup unless the module
    /// sets `escape: true`, so all three are pango-escaped here (and that option must stay off, or `&` shows as
    /// `&amp;`). `class` lists the state first, for CSS such as `#custom-clock.urgent`, then the entry's own classes.
    /// `percentage` (0–100, for `format-icons`) only when the entry has one.
    private static func appendWaybar(_ text: FittedText, content: EntryContent, to output: inout [UInt8]) {
        output.append(contentsOf: #"{"text":"#.utf8)
        if text.dimmed.isEmpty {
            Escaping.appendJSONString(text.full, pango: !text.isMarkup, to: &output)
        } else {
            Escaping.appendJSONString(pangoMarkup(text), to: &output)
        }
        output.append(contentsOf: #","alt":"#.utf8)
        Escaping.appendJSONString(text.short, pango: !text.isMarkup, to: &output)
        if let tooltip = content.tooltip {
            output.append(contentsOf: #","tooltip":"#.utf8)
            Escaping.appendJSONString(TextSanitizer.multiLine(tooltip), pango: true, to: &output)
        }
        output.append(contentsOf: #","class":["#.utf8)
        Escaping.appendJSONString(content.state.rawValue, to: &output)
        for name in content.classes {
            output.append(UInt8(ascii: ","))
            Escaping.appendJSONString(TextSanitizer.singleLine(name), to: &output)
        }
        output.append(UInt8(ascii: "]"))
        if let percentage = content.percentage {
            output.append(contentsOf: #","percentage":\#(percentage)"#.utf8)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// `%{B#…}%{F#…}text%{F-}%{B-}`, with tags only for the colours the entry sets.
    private static func appendPolybar(_ text: FittedText, content: EntryContent, to output: inout [UInt8]) {
        if let background = content.background {
            output.append(contentsOf: "%{B\(polybarHex(background))}".utf8)
        }
        if let foreground = content.foreground {
            output.append(contentsOf: "%{F\(polybarHex(foreground))}".utf8)
        }
        for run in text.runs {
            guard run.dimmed else {
                Escaping.appendPolybar(String(run.text), to: &output)
                continue
            }
            output.append(contentsOf: "%{F\(polybarHex(dimmedForeground))}".utf8)
            Escaping.appendPolybar(String(run.text), to: &output)
            output.append(contentsOf: (content.foreground.map { "%{F\(polybarHex($0))}" } ?? "%{F-}").utf8)
        }
        if content.foreground != nil {
            output.append(contentsOf: "%{F-}".utf8)
        }
        if content.background != nil {
            output.append(contentsOf: "%{B-}".utf8)
        }
    }

    /// `#[fg=#…,bg=#…]text#[default]`, or the bare text when the entry sets no colour.
    private static func appendTmux(_ text: FittedText, content: EntryContent, to output: inout [UInt8]) {
        let style = [
            content.foreground.map { "fg=\(tmuxHex($0))" },
            content.background.map { "bg=\(tmuxHex($0))" },
        ].compactMap(\.self)
        if !style.isEmpty {
            output.append(contentsOf: "#[\(style.joined(separator: ","))]".utf8)
        }
        let runs = text.runs
        for (index, run) in runs.enumerated() {
            // A grey, not tmux's `dim` attribute: many terminals (rxvt-unicode, the Linux console) draw faint text as
            // normal text.
            if run.dimmed { output.append(contentsOf: "#[fg=\(tmuxHex(dimmedForeground))]".utf8) }
            // Whether a style's `#[` comes right after this run's text: its own colour's end, the next run's grey, or
            // the closing `#[default]`.
            let styleFollows = run.dimmed || (index + 1 < runs.count ? runs[index + 1].dimmed : !style.isEmpty)
            Escaping.appendTmux(String(run.text), styleFollows: styleFollows, to: &output)
            if run.dimmed {
                output.append(contentsOf: "#[fg=\(content.foreground.map(tmuxHex) ?? "default")]".utf8)
            }
        }
        if !style.isEmpty {
            output.append(contentsOf: "#[default]".utf8)
        }
    }

    /// The grey of dimmed runs in polybar, which has no dim attribute, and in tmux, whose `dim` many terminals ignore.
    static let dimmedForeground = Color(red: 0x88, green: 0x88, blue: 0x88)

    /// polybar's colour form: `#rrggbb`, or `#aarrggbb` with the alpha first (polybar's `rgba` reads ARGB, not the
    /// `#rrggbbaa` that i3bar takes).
    private static func polybarHex(_ color: Color) -> String {
        let opaque = Color(red: color.red, green: color.green, blue: color.blue).hex
        guard color.alpha != 255 else { return opaque }
        let alpha = String(color.alpha, radix: 16)
        return "#" + (alpha.count == 1 ? "0" + alpha : alpha) + opaque.dropFirst()
    }

    /// tmux's colour form: `#rrggbb` only (`colour_fromstring` refuses other lengths, which would drop the whole
    /// style), so the alpha is left out.
    private static func tmuxHex(_ color: Color) -> String {
        Color(red: color.red, green: color.green, blue: color.blue).hex
    }
}
