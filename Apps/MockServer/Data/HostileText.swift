/// Text a hostile or broken server sends (`--hostile-text`): terminal escape sequences (an OSC
/// that retitles the window, a CSI that clears the screen), C1 controls (U+009B is a one-byte
/// CSI to some terminals), DEL, and bidirectional overrides and isolates that reorder what a
/// line shows. A client must print none of it raw to a terminal, in any format.
enum HostileText {
    /// One sample of each kind, each still readable once its controls are escaped.
    static let samples = [
        "\u{1B}]0;pwned by a title\u{07}OSC retitles the window",
        "\u{1B}[2J\u{1B}[Hthe screen was cleared",
        "\u{9B}31mC1 CSI turns it red\u{9B}0m",
        "invoice\u{202E}fdp.exe",
        "\u{2066}isolated\u{2069} text with a DEL\u{7F} and a BEL\u{07}",
    ]

    /// The sample for a number (an item's id, a request's sequence), cycling through them.
    static func sample(_ number: Int) -> String {
        samples[abs(number) % samples.count]
    }

    /// A header value with controls HTTP's grammar forbids but a broken server sends anyway
    /// (ESC, C1, bidi): the `X-Mock-Note` field of every answer.
    static let headerValue = "\u{1B}]0;header\u{07}note\u{9B}2J \u{202E}gnp.exe"

    /// Whether an item with `id` gets a hostile title: one in three.
    static func marks(_ id: Int) -> Bool { id % 3 == 0 }
}
