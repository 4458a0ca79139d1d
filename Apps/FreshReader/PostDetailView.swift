import Foundation
import Models
import TerminalText

/// An open post: its title, "by AUTHOR · DATE", a rule, then the body wrapped by display
/// cells. Produces every line; ``ReaderState`` scrolls over them.
public enum PostDetailView {
    /// Cells left blank on each side of the text.
    static let margin = 1

    /// The lines of `post` on a screen `width` cells wide, remote text made safe.
    public static func lines(for post: Post, width: Int, measure: DisplayWidth, timeZone: TimeZone = .current) -> [ScreenLine] {
        let textWidth = max(1, width - 2 * margin)
        let indent = String(repeating: " ", count: margin)
        func wrap(_ text: String, style: ScreenLine.Style) -> [ScreenLine] {
            measure.wrapped(text, to: textWidth).map { ScreenLine(indent + $0, style: style) }
        }
        let title = SafeText.line(post.title, width: measure)
        let byline = "by \(SafeText.line(post.author, width: measure)) · #\(post.id) · updated \(DateText.dateTime(post.updatedAt, timeZone: timeZone))"
        let rule = ScreenLine(indent + String(repeating: "─", count: textWidth), style: .dim)
        let body = SafeText.lines(post.body, width: measure).flatMap { wrap($0, style: .plain) }
        return wrap(title, style: .heading) + wrap(byline, style: .dim) + [rule] + body
    }
}
