import Formats
import Foundation
import Testing
import Text
import Timelines

@Suite("pango markup")
struct PangoMarkupTests {
    @Test(arguments: [
        ("<b>bold</b> &amp; <span color='#f00' weight=\"bold\">red</span>", true),
        ("plain text > ok", true),
        ("<b>open", false),
        ("<b><i>crossed</b></i>", false),
        ("AT&T", false),
        ("<blink>x</blink>", false),
        ("<span color=red>x</span>", false),
        ("&#x41;&#66;", true),
    ])
    func wellFormednessIsPangos(_ markup: String, _ wellFormed: Bool) {
        #expect(PangoMarkup.isWellFormed(markup) == wellFormed)
    }

    @Test func plainTextDropsTagsAndDecodesEntities() {
        #expect(PangoMarkup.plainText("<b>a</b> &lt;&amp;&gt; <span foreground='red'>b</span>") == "a <&> b")
    }

    @Test func truncationCountsOnlyWhatShowsAndClosesOpenTags() {
        let markup = "<span color='#ff0000'>abcdef</span><b>ghij</b>"
        #expect(PangoMarkup.truncate(markup, toWidth: 10) == markup)
        #expect(PangoMarkup.truncate(markup, toWidth: 5) == "<span color='#ff0000'>abcd…</span>")
        #expect(PangoMarkup.truncate(markup, toWidth: 8) == "<span color='#ff0000'>abcdef</span><b>g…</b>")
        // An entity is one character, never cut in half.
        #expect(PangoMarkup.truncate("a&amp;b&amp;c&amp;d", toWidth: 4) == "a&amp;b…")
    }
}

@Suite("block rendering")
struct BlockRenderingTests {
    func content(_ text: String, block: BlockProperties, short: String? = nil) -> EntryContent {
        var content = EntryContent(text: text, shortText: short, foreground: Color(hex: "#00ff00"))
        content.block = block
        return content
    }

    @Test func markupPassesToI3barAndWaybarAndIsStrippedElsewhere() {
        let entry = content("<b>5%</b> &amp; up", block: BlockProperties(isMarkup: true, keepsWholeText: true))
        let i3bar = Renderer.render(entry, family: .systemSmall, format: .i3bar, instance: "w")
        #expect(
            i3bar
                == ##"{"full_text":"<b>5%</b> &amp; up","color":"#00ff00","urgent":false,"name":"widgetd","instance":"w","markup":"pango"}"##
                + "\n")
        let waybar = Renderer.render(entry, family: .systemSmall, format: .waybar, instance: "w")
        #expect(waybar.hasPrefix(#"{"text":"<b>5%</b> &amp; up","alt":"""#))
        #expect(Renderer.render(entry, family: .systemSmall, format: .plain, instance: "w") == "5% & up\n")
        #expect(
            Renderer.render(entry, family: .systemSmall, format: .i3blocks, instance: "w") == "5% & up\n\n#00ff00\n")
        #expect(
            Renderer.render(entry, family: .systemSmall, format: .i3blocks, instance: "w", markup: true)
                == "<b>5%</b> &amp; up\n\n#00ff00\n")
    }

    @Test func aBarsLayoutOverridesTheEntrysAndNoKeyIsSentTwice() throws {
        let entry = content(
            "CPU 5%", block: BlockProperties(keepsWholeText: true, minWidth: .text("CPU 100%"), align: "left"))
        let layout = BlockProperties(minWidth: .pixels(300), separator: false)
        let block = Renderer.render(
            entry, family: .systemSmall, format: .i3bar, instance: "cpu", backgroundsShow: true, layout: layout)
        #expect(block.components(separatedBy: "\"min_width\"").count == 2, "\(block)")
        #expect(block.contains(#""min_width":300"#))
        #expect(block.contains(#""align":"left""#))
        #expect(block.contains(#""separator":false"#))
        // The layout changes nothing about the text: a plain entry is not cut like a script's block.
        let quote = EntryContent(text: String(repeating: "word ", count: 30))
        #expect(
            Renderer.render(quote, family: .systemSmall, format: .i3bar, instance: "q", layout: layout)
                .hasPrefix(
                    String(
                        Renderer.render(quote, family: .systemSmall, format: .i3bar, instance: "q")
                            .prefix(while: { $0 != "," }))))
    }

    @Test func wholeTextIsNotCutAndNoShortTextIsMadeUp() {
        let long = String(repeating: "x", count: 60)
        let whole = Renderer.render(
            content(long, block: BlockProperties(keepsWholeText: true)), family: .systemSmall, format: .i3bar,
            instance: "w")
        #expect(whole.contains(#""full_text":"\#(long)""#))
        #expect(!whole.contains("short_text"))
        let cut = Renderer.render(
            content(long, block: BlockProperties(), short: "s"), family: .systemSmall, format: .i3bar, instance: "w")
        #expect(cut.contains(#""full_text":"\#(String(repeating: "x", count: 23))…""#))
        #expect(cut.contains(#""short_text":"s""#))
    }

    @Test func layoutPropertiesReachI3bar() {
        let block = BlockProperties(
            keepsWholeText: true, minWidth: .text("100%"), align: "center", separator: false, separatorBlockWidth: 3)
        let i3bar = Renderer.render(content("x", block: block), family: .systemSmall, format: .i3bar, instance: "w")
        #expect(i3bar.contains(#""min_width":"100%","align":"center","separator":false,"separator_block_width":3"#))
        let pixels = BlockProperties(minWidth: .pixels(80))
        #expect(
            Renderer.render(content("x", block: pixels), family: .systemSmall, format: .i3bar, instance: "w")
                .contains(#""min_width":80"#))
    }

    @Test func recordsKeepBlockPropertiesAndBothEncodersAgree() throws {
        let block = BlockProperties(
            isMarkup: true, keepsWholeText: true, minWidth: .pixels(40), align: "right", separator: true,
            separatorBlockWidth: 9)
        let record = InstanceRecord(
            instance: "w", kind: "exec", family: .systemSmall,
            entries: [
                TimelineEntry(date: Date(timeIntervalSince1970: 100), content: content("<i>x</i>", block: block))
            ],
            fallback: EntryContent(text: "…"), failure: nil)
        #expect(try record.encoded() == record.encodedByJSONEncoder())
        let decoded = try JSONDecoder().decode(InstanceRecord.self, from: Data(record.encoded()))
        #expect(decoded.entries.first?.content.block == block)
    }

    /// A widget of a block-reading kind with no family shows each stored entry whole, keeping the block's other
    /// properties, the timeline's dates, policy and notes.
    @Test func showingWholeTextMarksEveryEntryWholeAndKeepsTheRest() {
        let aligned = BlockProperties(minWidth: .pixels(40), align: "right")
        let entries = [
            TimelineEntry(date: Date(timeIntervalSince1970: 100), content: EntryContent(text: "a")),
            TimelineEntry(date: Date(timeIntervalSince1970: 200), content: content("b", block: aligned)),
        ]
        var timeline = Timeline(entries: entries, policy: .after(Date(timeIntervalSince1970: 300)))
        timeline.notes = ["cut"]

        let whole = timeline.showingWholeText()

        #expect(whole.entries.map(\.date) == entries.map(\.date))
        #expect(whole.entries.map(\.content.text) == ["a", "b"])
        #expect(whole.entries[0].content.block == BlockProperties(keepsWholeText: true))
        #expect(
            whole.entries[1].content.block
                == BlockProperties(keepsWholeText: true, minWidth: .pixels(40), align: "right"))
        #expect(whole.policy == timeline.policy)
        #expect(whole.notes == ["cut"])
        #expect(whole.showingWholeText() == whole)
    }

    /// Block properties are the entry's presentation, which the engine carries without knowing their type.
    @Test func blockPropertiesRideOnTheEntrysPresentation() {
        let block = BlockProperties(isMarkup: true, separator: false)
        var marked = EntryContent(text: "x")
        #expect(marked.block == nil)
        #expect(marked.presentation == nil)
        marked.block = block
        #expect(marked.block == block)
        #expect(marked.presentation == EntryPresentation(block))
        #expect(marked != EntryContent(text: "x"))
        var other = EntryContent(text: "x")
        other.block = BlockProperties(isMarkup: true, separator: true)
        #expect(marked != other)
        marked.block = nil
        #expect(marked == EntryContent(text: "x"))
    }
}
