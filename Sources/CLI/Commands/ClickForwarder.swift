import Basics
import Control
import FoundationEssentials
import Glibc

/// Passes the clicks a bar reports to a block's command on to the daemon as `click NAME BUTTON [RELATIVE_X WIDTH]`
/// lines, for `widgetd show`.
///
/// i3blocks tells a block's command about a click in two ways, depending on its version and the block's interval:
///
/// - In the environment of the command it starts for the click, for blocks that are not `interval=persist` (every
///   version): `BLOCK_BUTTON`, and from 1.5 on also `relative_x` and `width` (every key of i3bar's click event
///   becomes a variable). i3blocks 1.4 sets only `BLOCK_BUTTON`, `BLOCK_X` and `BLOCK_Y`, and those two are where
///   the pointer was on the screen, not in the block, so with 1.4 only the button is known.
/// - On the standard input of a running `interval=persist` block, from i3blocks 1.5 on: the button and a newline,
///   or with `format=json` one JSON object per line with `button`, `relative_x`, `width` and the block's other keys.
///
/// i3blocks 1.4 tells a persist block nothing: it drops a click for a block whose process is still running, and it
/// gives its children its own standard input, i3bar's click stream, which it reads itself, non-blocking, when
/// `SIGIO` says a click came. A child that read it would steal the clicks of every other block, so
/// `readsClicks(from:)` leaves such a descriptor alone.
struct ClickForwarder {
    /// One click: the button (1 left … 5 scroll down) and, when the bar says, where in the block it landed and how
    /// wide the block is.
    struct Click: Equatable, Sendable {
        var button: Int
        var relativeX: Int?
        var width: Int?
        /// The rest of i3bar's click (absolute position, relative y, height, modifiers), passed on to the widget.
        var details = ControlCommand.ClickDetails()

        /// A click; the position is kept only when it makes sense (`0 ≤ relativeX ≤ width`, `width ≥ 1`), as the
        /// FIFO's `click` line takes both or neither.
        init(button: Int, relativeX: Int? = nil, width: Int? = nil, details: ControlCommand.ClickDetails = .init()) {
            self.button = button
            self.details = details
            if let relativeX, let width, width >= 1, (0...width).contains(relativeX) {
                self.relativeX = relativeX
                self.width = width
            }
        }
    }

    /// The widget the clicks are for: the instance `widgetd show` shows.
    let instance: String
    let paths: ControlPaths

    /// The FIFO request for `click`.
    func command(for click: Click) -> ControlCommand {
        ControlCommand(
            .click(
                instance: instance, button: click.button, relativeX: click.relativeX, width: click.width,
                details: click.details))
    }

    /// Writes the click's line to the FIFO and returns at once; `show --follow` prints the result when the daemon
    /// writes it.
    ///
    /// Never waits for room: a FIFO the daemon does not read (stopped, or stalled) throws `.busy` at once, and the
    /// click is lost. Its callers are `bar` and `show --follow`, whose output must go on meanwhile: a wait per click
    /// would hold their status line, clocks included, for as long as clicks keep coming.
    func send(_ click: Click) throws(ControlClientError) {
        try ControlClient.send(command(for: click), fifo: paths.fifo, timeout: .zero)
    }

    /// Writes the click's line and waits until the daemon has written the entries it caused, for a command that
    /// prints the entry once and exits.
    func sendAndWait(_ click: Click, timeout: Duration) throws(ControlClientError) {
        try ControlClient.sendAndWait(command(for: click), paths: paths, timeout: timeout)
    }

    // MARK: - Reading clicks

    /// The click that made i3blocks start this command, from its environment; nil when it was not a click.
    ///
    /// i3blocks sets `BLOCK_BUTTON` to the button, or to the empty string when the command runs for its interval or
    /// a signal. The position comes from 1.5's `relative_x` and `width`, never from `BLOCK_X`, which is on the
    /// screen. Buttons beyond 5 (i3bar's horizontal scroll, 6 and 7, and the side buttons) are no click widgetd
    /// takes, so they are none here either.
    static func click(environment: [String: String]) -> Click? {
        guard let button = environment["BLOCK_BUTTON"].flatMap(number), (1...5).contains(button) else { return nil }
        // 1.5 exports i3bar's keys under their names; 1.4 only BLOCK_X and BLOCK_Y, which are the same x and y.
        let details = ControlCommand.ClickDetails(
            x: (environment["x"] ?? environment["BLOCK_X"]).flatMap(signedNumber),
            y: (environment["y"] ?? environment["BLOCK_Y"]).flatMap(signedNumber),
            relativeY: environment["relative_y"].flatMap(number), height: environment["height"].flatMap(number),
            modifiers: environment["modifiers"].map(modifiers) ?? [])
        return Click(
            button: button, relativeX: environment["relative_x"].flatMap(number),
            width: environment["width"].flatMap(number), details: details)
    }

    /// The click on one line of a persist block's standard input: a button number (i3blocks' default format), or
    /// a JSON object with `button` and perhaps `relative_x` and `width` (`format=json`); nil for anything else.
    ///
    /// A leading `,` is skipped and a `[` line is no click, so i3bar's own click stream can be piped in as it is.
    static func click(line: some StringProtocol) -> Click? {
        var text = line.trimmingWhitespace()[...]
        if text.hasPrefix(",") { text = text.dropFirst().drop(while: \.isWhitespace) }
        guard let first = text.first else { return nil }
        guard first == "{" else {
            guard let button = number(String(text)), (1...5).contains(button) else { return nil }
            return Click(button: button)
        }
        guard let event = try? JSONDecoder().decode(ClickEvent.self, from: Data(text.utf8)),
            let button = event.button?.value, (1...5).contains(button)
        else { return nil }
        let details = ControlCommand.ClickDetails(
            x: event.x?.value, y: event.y?.value, relativeY: event.relativeY?.value, height: event.height?.value,
            modifiers: (event.modifiers ?? []).filter(isModifierName))
        return Click(button: button, relativeX: event.relativeX?.value, width: event.width?.value, details: details)
    }

    /// `["Shift","Mod4"]` as i3blocks 1.5 exports i3bar's array, or `Shift,Mod4`; names that are no key are dropped.
    private static func modifiers(_ text: String) -> [String] {
        let inside = text.trimming(anyOf: "[] ")
        return inside.split(separator: ",").map { $0.trimming(anyOf: "\" ") }
            .filter(isModifierName)
    }

    private static func isModifierName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 32 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// A whole number that may be negative (a screen position left of or above the first screen).
    private static func signedNumber(_ text: String) -> Int? {
        let trimmed = text.trimmingSpaces()
        if trimmed.hasPrefix("-") { return number(String(trimmed.dropFirst())).map { -$0 } }
        return number(trimmed)
    }

    /// The keys of a click event that matter here; i3blocks 1.5 adds the block's own keys, which are ignored.
    private struct ClickEvent: Decodable {
        var button: WholeNumber?
        var relativeX: WholeNumber?
        var width: WholeNumber?
        var x: WholeNumber?
        var y: WholeNumber?
        var relativeY: WholeNumber?
        var height: WholeNumber?
        var modifiers: [String]?

        enum CodingKeys: String, CodingKey {
            case button, width, x, y, height, modifiers
            case relativeX = "relative_x"
            case relativeY = "relative_y"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            button = try? container.decodeIfPresent(WholeNumber.self, forKey: .button)
            relativeX = try? container.decodeIfPresent(WholeNumber.self, forKey: .relativeX)
            width = try? container.decodeIfPresent(WholeNumber.self, forKey: .width)
            x = try? container.decodeIfPresent(WholeNumber.self, forKey: .x)
            y = try? container.decodeIfPresent(WholeNumber.self, forKey: .y)
            relativeY = try? container.decodeIfPresent(WholeNumber.self, forKey: .relativeY)
            height = try? container.decodeIfPresent(WholeNumber.self, forKey: .height)
            // Anything but a list of strings is no modifier list; the click still counts.
            modifiers = try? container.decodeIfPresent([String].self, forKey: .modifiers)
        }
    }

    /// A whole number written as a JSON number (i3bar writes integers; a fraction is cut) or as a string of digits,
    /// as i3blocks may pass a value on as it stored it; nil for anything else, such as `true`.
    private struct WholeNumber: Decodable {
        var value: Int?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let integer = try? container.decode(Int.self) {
                value = integer >= 0 ? integer : nil
            } else if let double = try? container.decode(Double.self), double.isFinite, double >= 0, double < 1e9 {
                value = Int(double)
            } else if let string = try? container.decode(String.self) {
                value = ClickForwarder.number(string)
            }
        }
    }

    /// A whole number written in decimal digits only (at most 9, so no overflow).
    private static func number(_ text: String) -> Int? {
        let digits = text.trimmingSpaces()
        guard (1...9).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(digits)
    }

    /// Whether the standard input `descriptor` is where a bar writes this command's clicks, so that `show --follow`
    /// should read it.
    ///
    /// Not a terminal: typing is not clicking, and a background job that reads its terminal is stopped (`SIGTTIN`).
    /// Not a descriptor another process has asked the kernel to signal it about (`O_ASYNC` with an owner that is
    /// not this process, `fcntl(F_GETFL)`, `fcntl(F_GETOWN)`): that is i3blocks 1.4's own click stream, handed down
    /// to every block, and whatever this process read there would be lost to i3blocks. Everything else is read:
    /// 1.5's pipe, a FIFO, a file; `/dev/null` and a closed pipe end at once.
    static func readsClicks(from descriptor: Int32) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0, isatty(descriptor) == 0 else { return false }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0 else { return false }
        if flags & O_ASYNC != 0 {
            let owner = fcntl(descriptor, F_GETOWN)
            if owner != 0 && owner != getpid() { return false }
        }
        return true
    }

    /// Cuts a byte stream into lines, holding a partial line until its newline comes.
    ///
    /// A line longer than `maximumLineLength` is dropped whole (up to its newline) rather than buffered without end.
    struct LineSplitter {
        static let maximumLineLength = 64 * 1024
        private var pending: [UInt8] = []
        private var discarding = false

        /// The lines `bytes` completes, without their newlines; invalid UTF-8 is replaced, not trusted.
        mutating func lines(adding bytes: [UInt8]) -> [String] {
            var lines: [String] = []
            var start = bytes.startIndex
            while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if !discarding {
                    pending += bytes[start..<newline]
                    if pending.count <= Self.maximumLineLength {
                        lines.append(String(decoding: pending, as: UTF8.self))
                    }
                }
                pending.removeAll(keepingCapacity: true)
                discarding = false
                start = newline + 1
            }
            if !discarding {
                pending += bytes[start...]
                if pending.count > Self.maximumLineLength {
                    pending.removeAll()
                    discarding = true
                }
            }
            return lines
        }
    }
}
