import Formats
import Foundation
import Testing
import Text
import Timelines

/// A text meant to break a bar format, named for the test log.
struct HostileText: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String

    var testDescription: String { name }

    static let all: [HostileText] = [
        HostileText(name: "quote", text: #"say "hi" now"#),
        HostileText(name: "backslash", text: #"C:\temp\n and \u0041"#),
        HostileText(name: "pango", text: "<b>&amp; bold</b> & <i>"),
        HostileText(name: "polybar tag", text: "50% %{F#f00}red%{A1:rm -rf ~:}x%{A} 100%"),
        HostileText(name: "polybar double percent", text: "%%{F#f00}"),
        HostileText(name: "tmux style", text: "#[fg=red]alert ##[bg=blue] #{pane_id} #(id) #"),
        HostileText(name: "tmux runs", text: "C## x ### y #### z ##"),
        HostileText(name: "newline", text: "line one\nline two\r\nthree"),
        HostileText(name: "tab", text: "col\tcol"),
        HostileText(name: "NUL", text: "before\u{0}after"),
        HostileText(name: "ESC", text: "\u{1B}[31mred\u{1B}[0m \u{1B}]0;title\u{7}"),
        HostileText(name: "10 KB", text: String(repeating: "all work and no play ", count: 500)),
        HostileText(name: "emoji", text: "👍🏽 🇫🇷 👨‍👩‍👧 ❤️ done"),
        HostileText(name: "combining marks", text: "e\u{301}\u{302}\u{303} Z\u{335}\u{327}\u{31B}algo"),
        HostileText(name: "CJK", text: "東京の天気は晴れのち曇り、ところにより雨"),
        HostileText(name: "only controls", text: "\u{0}\u{1B}\n\t\u{7F}"),
        HostileText(
            name: "invalid UTF-8", text: TextSanitizer.repair(bytes: [0x6F, 0x6B, 0xFF, 0xC3, 0x28, 0xE2, 0x82])),
    ]
}

@Suite("renderer")
struct RendererTests {
    static let family = Family.accessoryInline

    /// What a bar must show for `text`: sanitized, then fitted.
    func expected(_ text: String, family: Family = family) -> FittedText {
        EntryContent(text: TextSanitizer.singleLine(text)).fitted(to: family)
    }

    func hostileEntry(_ hostile: HostileText, colors: Bool) -> EntryContent {
        EntryContent(
            text: hostile.text, tooltip: hostile.text,
            foreground: colors ? Color(hex: "#ff8000") : nil, background: colors ? Color(hex: "#10203040") : nil,
            classes: ["favorite"])
    }

    func render(_ content: EntryContent, _ format: OutputFormat, markup: Bool = false) -> String {
        Renderer.render(content, family: Self.family, format: format, instance: "clock", markup: markup)
    }

    /// The JSON object of a one-line JSON output.
    func jsonObject(_ output: String) throws -> [String: Any] {
        #expect(output.hasSuffix("\n"))
        #expect(output.dropLast().allSatisfy { $0 != "\n" }, "JSON output must be one line")
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
        return try #require(object as? [String: Any])
    }

    /// Undoes `g_markup_escape_text`.
    func pangoUnescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    func expectNoControls(_ output: String, allowingNewlines: Bool = false) {
        let bad = output.dropLast().unicodeScalars.filter {
            ($0.value < 0x20 || (0x7F..<0xA0).contains($0.value)) && !(allowingNewlines && $0 == "\n")
        }
        #expect(bad.isEmpty, "control characters in \(output.debugDescription)")
    }

    @Test(arguments: HostileText.all)
    func plainIsTheSanitizedFittedText(_ hostile: HostileText) {
        let output = render(hostileEntry(hostile, colors: true), .plain)
        #expect(output == expected(hostile.text).full + "\n")
        #expect(DisplayWidth.of(output.dropLast()) <= Self.family.fullWidth)
        expectNoControls(output)
    }

    @Test(arguments: HostileText.all, [false, true])
    func i3blocksHasOneFieldPerLine(_ hostile: HostileText, markup: Bool) {
        let output = render(hostileEntry(hostile, colors: true), .i3blocks, markup: markup)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let fitted = expected(hostile.text)
        // No background line: i3blocks 1.4 drops it, and the colour (which reads on i3bar's black) stands alone.
        #expect(lines.count == 4, "three lines and the final newline: \(output.debugDescription)")
        #expect(lines.last == "")
        let unescape = { (line: String) in markup ? self.pangoUnescaped(line) : line }
        #expect(unescape(lines[0]) == fitted.full)
        #expect(unescape(lines[1]) == fitted.short)
        #expect(lines[2] == "#ff8000")
        if markup {
            #expect(!lines[0].contains("<") && !lines[0].contains("\""))
        }
        #expect(DisplayWidth.of(fitted.full) <= Self.family.fullWidth)
        expectNoControls(output, allowingNewlines: true)
    }

    @Test(arguments: HostileText.all, [false, true])
    func i3barParsesBackToTheText(_ hostile: HostileText, markup: Bool) throws {
        let output = render(hostileEntry(hostile, colors: true), .i3bar, markup: markup)
        let object = try jsonObject(output)
        let fitted = expected(hostile.text)
        let unescape = { (text: String?) in markup ? text.map(self.pangoUnescaped) : text }
        #expect(unescape(object["full_text"] as? String) == fitted.full)
        #expect(unescape(object["short_text"] as? String) == fitted.short)
        #expect(object["color"] as? String == "#ff8000")
        // The i3bar file is i3blocks' relay, which drops backgrounds (1.4): none is sent.
        #expect(object["background"] == nil)
        #expect(object["urgent"] as? Bool == false)
        #expect(object["name"] as? String == "widgetd")
        #expect(object["instance"] as? String == "clock")
        #expect(object["markup"] as? String == (markup ? "pango" : "none"))
        #expect(DisplayWidth.of(fitted.full) <= Self.family.fullWidth)
        #expect(DisplayWidth.of(fitted.short) <= Self.family.shortWidth)
        expectNoControls(output)
    }

    @Test(arguments: HostileText.all)
    func waybarParsesBackToTheTextWithMarkupEscaped(_ hostile: HostileText) throws {
        let output = render(hostileEntry(hostile, colors: true), .waybar)
        let object = try jsonObject(output)
        let fitted = expected(hostile.text)
        let text = try #require(object["text"] as? String)
        #expect(!text.contains("<") && !text.contains(">"))
        #expect(pangoUnescaped(text) == fitted.full)
        #expect((object["alt"] as? String).map(pangoUnescaped) == fitted.short)
        #expect((object["tooltip"] as? String).map(pangoUnescaped) == TextSanitizer.multiLine(hostile.text))
        #expect(object["class"] as? [String] == ["normal", "favorite"])
        #expect(object["percentage"] == nil)
        expectNoControls(output)
    }

    @Test(arguments: HostileText.all)
    func polybarUserTextOpensNoTag(_ hostile: HostileText) throws {
        let output = render(hostileEntry(hostile, colors: true), .polybar)
        let prefix = "%{B#40102030}%{F#ff8000}"
        let suffix = "%{F-}%{B-}\n"
        #expect(output.hasPrefix(prefix))
        #expect(output.hasSuffix(suffix))
        let body = String(output.dropFirst(prefix.count).dropLast(suffix.count))
        #expect(!body.contains("%{"))
        #expect(!body.contains("%%"))
        #expect(!body.hasSuffix("%"))
        #expect(body.replacingOccurrences(of: "\u{200B}", with: "") == expected(hostile.text).full)
        #expect(DisplayWidth.of(body) <= Self.family.fullWidth)
        expectNoControls(output)
        // Without colours the whole line is user text.
        let bare = render(hostileEntry(hostile, colors: false), .polybar)
        #expect(!bare.contains("%{"))
    }

    @Test(arguments: HostileText.all)
    func tmuxUserTextOpensNoStyle(_ hostile: HostileText) throws {
        let output = render(hostileEntry(hostile, colors: true), .tmux)
        let prefix = "#[fg=#ff8000,bg=#102030]"
        let suffix = "#[default]\n"
        #expect(output.hasPrefix(prefix))
        #expect(output.hasSuffix(suffix))
        // What tmux draws: the user's text as typed, in the entry's colours, and no style, variable or command of its
        // own.
        let drawn = try #require(TmuxStatusLine.drawn(String(output.dropLast())), "tmux would expand \(output)")
        #expect(drawn.styles == ["fg=#ff8000,bg=#102030", "default"])
        #expect(drawn.text == expected(hostile.text).full)
        #expect(DisplayWidth.of(drawn.text) <= Self.family.fullWidth)
        expectNoControls(output)
        let bare = render(hostileEntry(hostile, colors: false), .tmux)
        let drawnBare = try #require(TmuxStatusLine.drawn(String(bare.dropLast())), "tmux would expand \(bare)")
        #expect(drawnBare.styles == [])
        #expect(drawnBare.text == expected(hostile.text).full)
    }

    /// The runs of `#` tmux halves twice, including one that ends the text before the style that closes it, and one
    /// before a dimmed part's style.
    @Test func tmuxShowsEveryRunOfHashAsTyped() throws {
        let text = "C## x ### y ##[z #"
        #expect(render(EntryContent(text: text), .tmux) == "C######## x ############ y ####[z ####\n")
        let coloured = render(EntryContent(text: text, foreground: Color(hex: "#ff0000")), .tmux)
        #expect(coloured == "#[fg=#ff0000]C######## x ############ y ####[z ###[default]\n")
        let dimmed = render(EntryContent(text: "a#b#", dimmedRanges: [2..<4]), .tmux)
        #expect(dimmed == "a###[fg=#888888]b###[fg=default]\n")
        for (output, shown) in [(coloured, text), (dimmed, "a#b#")] {
            let drawn = try #require(TmuxStatusLine.drawn(String(output.dropLast())))
            #expect(drawn.text == shown)
        }
    }

    @Test func everyFamilyKeepsItsBudget() throws {
        let long = EntryContent(text: String(repeating: "漢字 emoji 👍🏽 ", count: 700))
        for family in Family.allCases {
            for format in [OutputFormat.plain, .i3bar] {
                let output = Renderer.render(long, family: family, format: format, instance: "x")
                if format == .i3bar {
                    let object = try jsonObject(output)
                    #expect(DisplayWidth.of(try #require(object["full_text"] as? String)) <= family.fullWidth)
                    #expect(DisplayWidth.of(try #require(object["short_text"] as? String)) <= family.shortWidth)
                } else {
                    #expect(DisplayWidth.of(output.dropLast()) <= family.fullWidth)
                }
            }
        }
    }

    @Test func i3blocksLeavesOutTrailingEmptyLines() {
        let text = EntryContent(text: "hi")
        #expect(render(text, .i3blocks) == "hi\nhi\n")
        var colored = text
        colored.foreground = Color(hex: "#abc")
        #expect(render(colored, .i3blocks) == "hi\nhi\n#aabbcc\n")
        var background = text
        background.background = Color(hex: "#000")
        // A black background is dropped, and black is no text colour on i3bar's black: nothing to send.
        #expect(render(background, .i3blocks) == "hi\nhi\n")
        #expect(render(EntryContent(text: "\u{0}"), .i3blocks) == "\n")
    }

    @Test func shortTextIsTheEntrysOwnWhenGiven() throws {
        let content = EntryContent(text: "Tuesday 14 January", shortText: "Tue\n14")
        let object = try jsonObject(render(content, .i3bar))
        #expect(object["short_text"] as? String == "Tue 14")
        let blank = EntryContent(text: "Tuesday", shortText: "\u{1B}\u{0}")
        #expect(try jsonObject(render(blank, .i3bar))["short_text"] as? String == "Tuesday")
    }

    @Test func statesAndClasses() throws {
        let urgent = EntryContent(text: "!", state: .urgent, classes: ["a b", "c"])
        #expect(try jsonObject(render(urgent, .i3bar))["urgent"] as? Bool == true)
        #expect(try jsonObject(render(urgent, .waybar))["class"] as? [String] == ["urgent", "a b", "c"])
        let stale = EntryContent(text: "old", state: .stale)
        let waybar = try jsonObject(render(stale, .waybar))
        #expect(waybar["class"] as? [String] == ["stale"])
        #expect(waybar["tooltip"] == nil)
    }

    @Test func dimmedPartsWhereTheFormatCanStyleAPartOfABlock() throws {
        let content = EntryContent(text: "☐ <b>&  ☑ 50% #[x]", dimmedRanges: [8..<18])
        #expect(render(content, .plain) == "☐ <b>&  ☑ 50% #[x]\n")
        #expect(
            try jsonObject(render(content, .waybar))["text"] as? String
                == "☐ &lt;b&gt;&amp;  <span alpha='50%'>☑ 50% #[x]</span>")
        #expect(render(content, .polybar) == "☐ <b>&  %{F#888888}☑ 50% #[x]%{F-}\n")
        #expect(render(content, .tmux) == "☐ <b>&  #[fg=#888888]☑ 50% ##[x]#[fg=default]\n")
        // i3bar can dim a part only with pango markup, so a block with a dimmed part says it is markup, with or
        // without the flag (`widgetd bar` does not set it).
        for marked in [false, true] {
            let block = try jsonObject(
                Renderer.render(content, family: .systemSmall, format: .i3bar, instance: "clock", markup: marked))
            #expect(block["full_text"] as? String == "☐ &lt;b&gt;&amp;  <span alpha='50%'>☑ 50% #[x]</span>")
            #expect(block["short_text"] as? String == "☐ &lt;b&gt;&amp;  ☑ 5…")
            #expect(block["markup"] as? String == "pango")
        }
        // Its own colour comes back after a dimmed part in polybar.
        var coloured = content
        coloured.foreground = Color(hex: "#ff0000")
        #expect(render(coloured, .polybar) == "%{F#ff0000}☐ <b>&  %{F#888888}☑ 50% #[x]%{F#ff0000}%{F-}\n")
    }

    @Test(arguments: [
        ("a\tb", 2..<3, "a <span alpha='50%'>b</span>"),
        ("ok \u{1B}[1mdone", 3..<4, "ok done"),
        ("x\u{1B}[31my", 2..<4, "xy"),
        // "é" with a combining accent is one character; the line break after it becomes the dimmed run's space.
        ("é\u{301}\nend", 1..<5, "é\u{301}<span alpha='50%'> end</span>"),
    ])
    func dimmingNeverChangesTheText(_ text: String, _ range: Range<Int>, _ waybarText: String) throws {
        let dimmed = EntryContent(text: text, dimmedRanges: [range])
        let plain = EntryContent(text: text)
        for format in [OutputFormat.plain, .i3blocks] {
            #expect(render(dimmed, format) == render(plain, format), "\(format)")
        }
        #expect(try jsonObject(render(dimmed, .waybar))["text"] as? String == waybarText)
        let i3bar = try jsonObject(render(dimmed, .i3bar))
        #expect(i3bar["full_text"] as? String == waybarText)
    }

    @Test func aCutRunKeepsTheEllipsisInsideItsStyle() throws {
        // systemSmall's budget cuts the dimmed run, and "…" ends it inside the span.
        let content = EntryContent(
            text: "open item  done item that is long", dimmedRanges: [11..<33])
        let text = try #require(try jsonObject(render(content, .waybar))["text"] as? String)
        #expect(text.hasPrefix("open item  <span alpha='50%'>done"))
        #expect(text.hasSuffix("…</span>"))
        // A dimmed run wholly past the cut is gone.
        let long = String(repeating: "x", count: 40) + " done"
        let late = EntryContent(text: long, dimmedRanges: [41..<45])
        #expect(render(late, .waybar) == render(EntryContent(text: long), .waybar))
        // Ranges out of order or past the end change nothing and break nothing.
        let hostile = EntryContent(text: "abc", dimmedRanges: [2..<9, 0..<1])
        #expect(render(hostile, .tmux) == "ab#[fg=#888888]c#[fg=default]\n")
    }

    @Test func exactShapes() {
        let content = EntryContent(
            text: "12:00", foreground: Color(hex: "#ff0000"), background: Color(hex: "#00000080"))
        #expect(
            render(content, .i3bar)
                == ##"{"full_text":"12:00","short_text":"12:00","color":"#ff0000","##
                + #""urgent":false,"name":"widgetd","instance":"clock","markup":"none"}"# + "\n")
        #expect(render(content, .waybar) == #"{"text":"12:00","alt":"12:00","class":["normal"]}"# + "\n")
        #expect(
            render(EntryContent(text: "5%", percentage: 5), .waybar)
                == #"{"text":"5%","alt":"5%","class":["normal"],"percentage":5}"# + "\n")
        #expect(EntryContent(text: "x", percentage: 140).percentage == 100)
        #expect(render(content, .polybar) == "%{B#80000000}%{F#ff0000}12:00%{F-}%{B-}\n")
        #expect(render(content, .tmux) == "#[fg=#ff0000,bg=#000000]12:00#[default]\n")
        #expect(render(EntryContent(text: "12:00"), .tmux) == "12:00\n")
        #expect(render(EntryContent(text: "12:00"), .polybar) == "12:00\n")
        #expect(render(EntryContent(text: "5%"), .polybar) == "5%\u{200B}\n")
        #expect(render(EntryContent(text: "a\u{7F}\"\\"), .i3bar).hasPrefix(#"{"full_text":"a\"\\""#))
    }

    /// Found by RendererFuzz (issue 10): text that starts with a combining mark. The tag's bytes stay whole (polybar
    /// parses bytes), even though, read as Swift `Character`s, the mark joins the tag's closing brace.
    @Test func textStartingWithACombiningMarkLeavesTheColourTagWhole() {
        let content = EntryContent(text: "\u{743}{now}", foreground: Color(hex: "#ff8800"))
        let output = render(content, .polybar)
        #expect(Array(output.utf8) == Array("%{F#ff8800}\u{743}{now}%{F-}\n".utf8))
        #expect(render(content, .tmux) == "#[fg=#ff8800]\u{743}{now}#[default]\n")
        // And after tmux's dimmed style (found the same way): the style's bytes stay whole.
        let dimmed = EntryContent(text: "\u{747}\u{741}String", dimmedRanges: [0..<1])
        #expect(Array(render(dimmed, .tmux).utf8) == Array("#[fg=#888888]\u{747}\u{741}#[fg=default]String\n".utf8))
    }

    @Test func jsonStringsEscapeEveryControlAndKeepUnicode() throws {
        // Instance names reach JSON unsanitized (the configuration limits them), so the escaper itself must cope.
        let instance = "q\"b\\s/" + String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }) + "\u{7F}é漢👍🏽"
        let output = Renderer.render(EntryContent(text: "x"), family: .systemSmall, format: .i3bar, instance: instance)
        #expect(output.contains(#"\u0001"#) && output.contains(#"\n"#) && output.contains(#"\u001f"#))
        #expect(output.contains("é漢👍🏽"))
        #expect(try jsonObject(output)["instance"] as? String == instance)
    }
}
