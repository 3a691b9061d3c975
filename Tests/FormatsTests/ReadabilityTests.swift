import Testing

@testable import Formats
@testable import Timelines

/// A foreground goes out only with the background it was chosen for; where backgrounds are dropped, the colour sent
/// reads on i3bar's black.
@Suite("Readability of the colours sent")
struct ReadabilityTests {
    let black = Color(red: 0, green: 0, blue: 0)
    let white = Color(red: 255, green: 255, blue: 255)
    let lightGrey = Color(hex: "#D3D3D3")!

    func render(_ content: EntryContent, _ format: OutputFormat) -> String {
        Renderer.render(content, family: .systemMedium, format: format, instance: "motivation")
    }

    @Test func theMotivationsBlackOnLightGreyShowsItsBackgroundColourWhereBackgroundsAreDropped() {
        let entry = EntryContent(text: "No zero days.", foreground: black, background: lightGrey)
        // i3blocks' raw lines and i3bar relay: the grey as the text colour, no background.
        #expect(render(entry, .i3blocks) == "No zero days.\nNo zero days.\n#d3d3d3\n")
        #expect(render(entry, .i3bar).contains(##""color":"#d3d3d3","urgent""##))
        #expect(!render(entry, .i3bar).contains("background"))
        // Bars that show backgrounds get the pair.
        #expect(render(entry, .polybar) == "%{B#d3d3d3}%{F#000000}No zero days.%{F-}%{B-}\n")
        #expect(render(entry, .tmux) == "#[fg=#000000,bg=#d3d3d3]No zero days.#[default]\n")
        let bar = Renderer.render(
            entry, family: .systemMedium, format: .i3bar, instance: "m", backgroundsShow: true)
        #expect(bar.contains(##""color":"#000000","background":"#d3d3d3""##))
    }

    @Test func aBackgroundWithoutForegroundGetsTheTextColourThatReadsOnIt() {
        let placeholder = EntryContent(text: "Stay motivated!", background: lightGrey)
        #expect(render(placeholder, .tmux) == "#[fg=#000000,bg=#d3d3d3]Stay motivated!#[default]\n")
        let dark = EntryContent(text: "x", background: Color(hex: "#202020")!)
        #expect(render(dark, .polybar) == "%{B#202020}%{F#ffffff}x%{F-}%{B-}\n")
    }

    @Test func aColourThatDoesNotReadOnBlackIsNotSentWhereBackgroundsAreDropped() {
        let entry = EntryContent(text: "x", foreground: white, background: Color(hex: "#000080")!)
        #expect(Readability.colors(of: entry, backgroundsShow: false) == (white, nil))
        let unreadable = EntryContent(text: "x", foreground: black, background: Color(hex: "#000080")!)
        #expect(Readability.colors(of: unreadable, backgroundsShow: false) == (nil, nil))
        // A colour with no background was chosen for the bar's own: it is sent as it is.
        let own = EntryContent(text: "x", foreground: Color(hex: "#88c0d0")!)
        #expect(Readability.colors(of: own, backgroundsShow: false) == (Color(hex: "#88c0d0")!, nil))
    }

    @Test func contrastFollowsWCAG() {
        #expect(abs(black.contrast(with: white) - 21) < 0.01)
        #expect(lightGrey.contrast(with: black) > 4.5)
        #expect(Color.readableText(on: lightGrey) == black)
        #expect(Color.readableText(on: Color(hex: "#c0392b")!) == white)
    }
}
