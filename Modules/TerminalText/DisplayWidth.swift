import CWidth

/// Measures text in terminal display cells, the unit a terminal lays text out in: a Latin
/// letter takes one cell, a Hangul syllable or most emoji take two, a combining mark none.
///
/// Every column, truncation and wrap in the reader goes through this type.
public struct DisplayWidth: Sendable {
    private let scalarWidth: @Sendable (Unicode.Scalar) -> Int

    /// A measure from a per-scalar width; a negative width marks a non-printable scalar.
    public init(scalarWidth: @escaping @Sendable (Unicode.Scalar) -> Int) { self.scalarWidth = scalarWidth }

    /// The C library's `wcwidth`, the table ncurses itself uses to place characters, so
    /// what is measured here is what ends up on the screen. Needs a UTF-8 `LC_CTYPE`
    /// (``TerminalLocale/activate()``). A printable ASCII character is one cell without the call
    /// (`wcwidth` says so in every UTF-8 locale).
    public static let system = DisplayWidth { scalar in
        (0x20..<0x7F).contains(scalar.value) ? 1 : Int(fresh_wcwidth(wchar_t(bitPattern: scalar.value)))
    }

    /// The "…" that marks cut text.
    public static let ellipsis = "…"

    // MARK: Measuring

    /// Whether the scalar has a display width at all (control and unassigned scalars do not).
    public func isPrintable(_ scalar: Unicode.Scalar) -> Bool { scalarWidth(scalar) >= 0 }

    /// The cells `text` takes; non-printable scalars count as zero.
    public func cells(_ text: some StringProtocol) -> Int { text.unicodeScalars.reduce(0) { $0 + max(0, scalarWidth($1)) } }
    /// The cells one character (grapheme cluster) takes.
    public func cells(_ character: Character) -> Int { character.unicodeScalars.reduce(0) { $0 + max(0, scalarWidth($1)) } }

    // MARK: Fitting

    /// `text` cut to at most `width` cells, ending in "…" when something was cut. Never
    /// splits a character, so a two-cell character that does not fit is left out whole.
    public func truncated(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if cells(text) <= width { return text }
        let budget = width - cells(Self.ellipsis)
        guard budget >= 0 else { return "" }
        return prefix(of: text.map(String.init), fitting: budget) + Self.ellipsis
    }

    /// The longest run of `units` from the first that fits in `budget` cells, joined.
    func prefix(of units: [String], fitting budget: Int) -> String {
        var kept = ""
        var used = 0
        for unit in units {
            let unitCells = cells(unit)
            if used + unitCells > budget { break }
            kept += unit
            used += unitCells
        }
        return kept
    }

    /// `count` spaces (none for a count below one), made in one step: `String(repeating:count:)`
    /// appends them one at a time, which was a twentieth of the reader's time a screen.
    static func spaces(_ count: Int) -> String {
        String(decoding: repeatElement(UInt8(ascii: " "), count: max(0, count)), as: UTF8.self)
    }

    /// Where the padding goes when text is shorter than its column.
    public enum Alignment: Sendable {
        /// Text first, padding after.
        case leading
        /// Padding first, text after (numbers).
        case trailing
    }

    /// `text` truncated and padded with spaces to exactly `width` cells.
    public func fitted(_ text: String, to width: Int, alignment: Alignment = .leading) -> String {
        let cut = truncated(text, to: width)
        let padding = Self.spaces(width - cells(cut))
        return alignment == .leading ? cut + padding : padding + cut
    }
}
