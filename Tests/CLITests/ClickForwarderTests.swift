import Control
import Glibc
import Testing

@testable import CLI

/// How `widgetd show` reads a click from i3blocks: a line of its standard input, or its environment.
@Suite("i3blocks' clicks")
struct ClickForwarderTests {
    @Test(arguments: [
        ("1", ClickForwarder.Click(button: 1)),
        ("3\n", ClickForwarder.Click(button: 3)),
        (" 5 ", ClickForwarder.Click(button: 5)),
        (#"{"button":2,"relative_x":10,"width":40}"#, ClickForwarder.Click(button: 2, relativeX: 10, width: 40)),
        (
            #",{"name":"widgetd","instance":"todos","button":1,"x":1186,"y":13}"#,
            ClickForwarder.Click(button: 1, details: .init(x: 1186, y: 13))
        ),
        (
            #"{"button":3,"x":5,"y":6,"relative_x":1,"relative_y":2,"width":30,"height":20,"modifiers":["Shift","Mod4"]}"#,
            ClickForwarder.Click(
                button: 3, relativeX: 1, width: 30,
                details: .init(x: 5, y: 6, relativeY: 2, height: 20, modifiers: ["Shift", "Mod4"]))
        ),
        (
            #"{"":"","button":"1","relative_x":"7","width":"50","full_text":"a \"b\""}"#,
            ClickForwarder.Click(button: 1, relativeX: 7, width: 50)
        ),
        (#"{"button":1,"relative_x":60,"width":50}"#, ClickForwarder.Click(button: 1)),
        (#"{"button":1,"relative_x":12.6,"width":50}"#, ClickForwarder.Click(button: 1, relativeX: 12, width: 50)),
    ])
    func clickLines(line: String, click: ClickForwarder.Click) {
        #expect(ClickForwarder.click(line: line) == click)
    }

    @Test(arguments: ["", "[", "]", "0", "6", "-1", "left", "{", #"{"button":true}"#, #"{"x":3}"#, "1 2"])
    func linesThatAreNoClick(line: String) {
        #expect(ClickForwarder.click(line: line) == nil)
    }

    @Test func clicksFromTheEnvironment() {
        // i3blocks 1.4: BLOCK_X and BLOCK_Y are on the screen: passed on as the click's x and y, not as a position
        // in the block.
        #expect(
            ClickForwarder.click(environment: ["BLOCK_BUTTON": "1", "BLOCK_X": "1186", "BLOCK_Y": "13"])
                == ClickForwarder.Click(button: 1, details: .init(x: 1186, y: 13)))
        #expect(
            ClickForwarder.click(environment: [
                "BLOCK_BUTTON": "2", "x": "-20", "y": "4", "relative_y": "3", "height": "22",
                "modifiers": #"["Control"]"#,
            ])
                == ClickForwarder.Click(
                    button: 2, details: .init(x: -20, y: 4, relativeY: 3, height: 22, modifiers: ["Control"])))
        // i3blocks 1.5 adds every key of i3bar's event.
        #expect(
            ClickForwarder.click(environment: ["BLOCK_BUTTON": "1", "button": "1", "relative_x": "30", "width": "90"])
                == ClickForwarder.Click(button: 1, relativeX: 30, width: 90))
        #expect(ClickForwarder.click(environment: ["BLOCK_BUTTON": ""]) == nil)
        #expect(ClickForwarder.click(environment: ["BLOCK_BUTTON": "7"]) == nil)
        #expect(ClickForwarder.click(environment: [:]) == nil)
    }

    @Test func standardInputIsReadUnlessItIsAnotherProcesssClickStream() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { _ = (close(ends[0]), close(ends[1])) }
        // i3blocks 1.5's persist pipe, a FIFO or a file: read.
        #expect(ClickForwarder.readsClicks(from: ends[0]))
        // i3blocks 1.4 hands its children its own stdin after fcntl(F_SETOWN, its pid) and O_ASYNC.
        try #require(fcntl(ends[0], F_SETOWN, getppid()) == 0)
        try #require(fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_ASYNC | O_NONBLOCK) == 0)
        #expect(!ClickForwarder.readsClicks(from: ends[0]))
        // Signalled to this process itself: its own, so read.
        try #require(fcntl(ends[0], F_SETOWN, getpid()) == 0)
        #expect(ClickForwarder.readsClicks(from: ends[0]))
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(null) }
        #expect(ClickForwarder.readsClicks(from: null))
        #expect(!ClickForwarder.readsClicks(from: -1))
    }
}

@Suite("click forwarding lines")
struct ClickForwardingLineTests {
    @Test func everyDetailOfTheBarsClickReachesTheFIFOLine() throws {
        let forwarder = ClickForwarder(instance: "cpu", paths: ControlPaths(directory: "/tmp/widgetd-test"))
        let click = try #require(
            ClickForwarder.click(
                line: #"{"name":"widgetd","instance":"cpu","button":3,"modifiers":["Mod4"],"x":1186,"y":13,"#
                    + #""relative_x":12,"relative_y":8,"width":120,"height":22}"#))
        #expect(
            forwarder.command(for: click).line
                == "click cpu 3 12 120 x=1186 y=13 relative_y=8 height=22 modifiers=Mod4")
    }
}
