/// widgets.yaml texts that many suites run a daemon on, each written once.
public enum SampleConfigs {
    /// A focus quote in three formats and a per-second clock: a widget that reloads on request beside one that
    /// changes every second.
    public static let quoteAndSeconds = """
        widgets:
          quote:
            kind: quotes
            intent:
              category: focus
            output: [plain, i3blocks, waybar]
          seconds:
            kind: clock
            family: systemSmall
            intent:
              seconds: true
              format: "%T"

        """

    /// A focus quote in two formats: one widget that reloads only on request.
    public static let focusQuote = """
        widgets:
          quote:
            kind: quotes
            intent:
              category: focus
            output: [plain, i3blocks]

        """

    /// A quote in two formats and a per-minute clock.
    public static let quoteAndClock = """
        widgets:
          quote:
            kind: quotes
            output: [plain, i3blocks]
          clock:
            kind: clock

        """
}
