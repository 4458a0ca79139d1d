/// What the UI loop needs from a terminal. ``Screen`` is the ncurses implementation; tests
/// drive the loop with a scripted one.
protocol TerminalScreen: AnyObject {
    /// The terminal's size now.
    var size: ScreenSize { get }
    /// Replaces what is on the screen with these lines (already fitted to the width).
    func draw(_ lines: [ScreenLine])
    /// The next key, waiting a short while; `nil` when none came, so the loop can pick up
    /// messages between keys.
    func readInput() -> KeyInput?
    /// Whether the terminal can no longer be read: it hung up, or reading it fails (it closed,
    /// or the reader was left in a background process group). The loop then ends, as on SIGHUP,
    /// instead of asking it for keys forever.
    var inputClosed: Bool { get }
}
