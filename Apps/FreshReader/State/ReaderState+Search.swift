import Foundation
import SyncEngine
import TerminalText

extension ReaderState {
    // MARK: Search

    /// A key while a search is typed: text goes into the query, Backspace takes a character
    /// back, Enter searches, Esc cancels. Letters never run as commands here.
    mutating func typeSearch(_ key: KeyInput) -> Effect {
        guard let typed = searchInput else { return .none }
        switch key {
        case .character(let character): searchInput = typed + String(character)
        case .backspace: searchInput = String(typed.dropLast())
        case .escape:
            searchInput = nil
            message = "search cancelled"
        case .enter:
            searchInput = nil
            guard !typed.trimmingCharacters(in: .whitespaces).isEmpty else { return .none }
            lastQuery = typed
            do { try search(typed, backward: false) } catch { message = "cannot search: \(ErrorDescription.line(error))" }
        default: break
        }
        return .none
    }

    mutating func repeatSearch(backward: Bool) throws {
        guard let lastQuery else {
            message = "no search yet — press / to search"
            return
        }
        try search(lastQuery, backward: backward)
    }

    /// Selects the next (or previous) match after the selected item, wrapping around; in an
    /// open item, opens the match.
    private mutating func search(_ query: String, backward: Bool) throws {
        guard let source else { return }
        let from = mode == .item ? openRow : selectedRow
        guard let match = try source.firstMatch(of: query, after: from, backward: backward),
              let ordinal = try source.ordinal(ofItem: match.id) else {
            message = "no match for \"\(SafeText.line(query, width: measure))\""
            return
        }
        if let from, match.id == from.id { message = "the only match for \"\(SafeText.line(query, width: measure))\"" }
        list.select(ordinal)
        try loadWindow()
        if mode == .item { try openItem(match) }
    }
}
