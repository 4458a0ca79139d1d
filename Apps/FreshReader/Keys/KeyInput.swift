/// A key press as the reader sees it, independent of ncurses' key codes.
public enum KeyInput: Hashable, Sendable {
    /// A printable key (any script: search text can be Hangul).
    case character(Character)
    /// A control key, by its letter: `.control("d")` is Ctrl-D.
    case control(Character)
    /// A special key.
    case up, down, pageUp, pageDown, home, end, enter, escape, backspace
    /// The terminal changed size.
    case resize

    /// How help and the status line name the key: `j`, `Ctrl-D`, `Down`, `Space`.
    public var name: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .control(let letter): "Ctrl-\(letter.uppercased())"
        case .up: "Up"
        case .down: "Down"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .resize: "resize"
        }
    }
}
