import Formats
import Foundation
import Kind
import Testing
import Timelines

@testable import Providers

@Suite("exec block properties")
struct ExecBlockTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func context() -> ProviderContext {
        ProviderContext(
            instance: "w", family: .systemSmall, now: now, settings: WidgetSettings(["command": .command(["true"])]))
    }

    func styled(_ text: String, _ values: [String: ParameterValue]) -> (EntryContent, [String]) {
        var notes: [String] = []
        let content = ExecKind.styled(
            ExecOutput.lines(text, urgent: false), configuration: IntentValues(values), notes: &notes)
        return (content, notes)
    }

    @Test func labelGoesBeforeTheFullTextAndColoursFillIn() {
        let (content, _) = styled(
            "42%\n", ["label": .string("CPU"), "color": .color(Color(hex: "#ff0000")!), "short_text": .string("c")])
        #expect(content.text == "CPU 42%")
        #expect(content.foreground == Color(hex: "#ff0000"))
        #expect(content.shortText == "c")
    }

    /// `label=` with nothing after it is no label, as in i3blocks 1.4: no space before the text.
    @Test func anEmptyLabelAddsNothing() {
        #expect(styled("x\n", ["label": .string("")]).0.text == "x")
    }

    @Test func theScriptsOwnColourWins() {
        let (content, _) = styled("x\n\n#00ff00\n", ["color": .color(Color(hex: "#ff0000")!)])
        #expect(content.foreground == Color(hex: "#00ff00"))
        #expect(content.shortText == nil)
    }

    @Test func malformedMarkupIsShownAsTextAndNoted() {
        let (good, _) = styled("<b>ok</b>\n", ["markup": .enumCase("pango")])
        #expect(good.block?.isMarkup == true)
        let (bad, notes) = styled("<b>open\n", ["markup": .enumCase("pango")])
        #expect(bad.block?.isMarkup == false)
        #expect(notes.first?.contains("not well-formed") == true)
    }

    /// Whole without a `family:`, as i3blocks shows a script's text; the daemon applies it (`ProviderRunner`).
    @Test func anExecWidgetShowsItsTextWholeUnlessItNamesAFamily() {
        #expect(ExecKind(environment: [:]).showsWholeTextWithoutFamily)
    }

    @Test func typedPropertiesReachTheScriptAsText() {
        let kind = ExecKind(environment: [:])
        let environment = kind.environment(
            for: IntentValues([
                "color": .color(Color(hex: "#ff0000")!), "separator": .bool(false), "instance": .string("eth0"),
                "T_WARN": .string("80"),
            ]), context: context(), click: nil)
        #expect(environment["color"] == "#ff0000")
        #expect(environment["separator"] == "false")
        #expect(environment["BLOCK_INSTANCE"] == "eth0")
        #expect(environment["instance"] == "eth0")
        #expect(environment["T_WARN"] == "80")
        #expect(environment["BLOCK_NAME"] == "w")
    }
}
