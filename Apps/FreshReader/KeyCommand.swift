/// A key press as the reader sees it, independent of ncurses' key codes.
public enum KeyInput: Equatable, Sendable {
    /// A printable key.
    case character(Character)
    /// A special key: arrows, PgUp/PgDn, Home/End, Enter, Esc.
    case up, down, pageUp, pageDown, home, end, enter, escape
    /// The terminal changed size.
    case resize
}

/// What a key asks the reader to do. The same keys work in the list and in a post; what
/// they mean there is ``ReaderState``'s business.
public enum KeyCommand: Equatable, Sendable {
    /// Up one row (list) or line (post): `k`, ↑.
    case up
    /// Down one row or line: `j`, ↓.
    case down
    /// Up one screen: PgUp, `b`.
    case pageUp
    /// Down one screen: PgDn, space.
    case pageDown
    /// To the top: `g`, Home.
    case first
    /// To the bottom: `G`, End.
    case last
    /// Open the selected post: Enter.
    case open
    /// Back to the list from a post; quit from the list: `q`, Esc.
    case back
    /// Refresh from the server in the background: `r`.
    case refresh

    /// The command of a key, or `nil` for a key that does nothing (a resize is not a
    /// command: the UI loop lays the screen out again).
    public init?(_ input: KeyInput) {
        switch input {
        case .up, .character("k"): self = .up
        case .down, .character("j"): self = .down
        case .pageUp, .character("b"): self = .pageUp
        case .pageDown, .character(" "): self = .pageDown
        case .home, .character("g"): self = .first
        case .end, .character("G"): self = .last
        case .enter: self = .open
        case .escape, .character("q"): self = .back
        case .character("r"): self = .refresh
        case .character, .resize: return nil
        }
    }
}
