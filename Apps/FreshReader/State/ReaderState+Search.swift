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
            return startSearch(typed, backward: false)
        default: break
        }
        return .none
    }

    mutating func repeatSearch(backward: Bool) -> Effect {
        guard let lastQuery else {
            message = "no search yet — press / to search"
            return .none
        }
        return startSearch(lastQuery, backward: backward)
    }

    /// The background update of collection `id`'s search index ended: a search still running
    /// without it runs again with it (its own answer, when it comes, is dropped). When the index
    /// is still not current (an update that failed, or a store that keeps none), the search
    /// without it goes on and answers.
    public mutating func searchIndexUpdated(collectionID id: Int64) -> Effect {
        guard let pending = pendingSearch, pending.collectionID == id else { return .none }
        guard entry?.id == id, mode == .list || mode == .item else {
            pendingSearch = nil
            return .none
        }
        guard (try? source?.searchIsReady()) == true else { return .none }
        pendingSearch = nil
        runSearch(pending.query, backward: pending.backward)
        return .none
    }

    /// The search without the index ended: `match` is the item found (`nil`: none), `failure`
    /// why it could not search. Shown only if it is still the search waited for.
    public mutating func searchedWithoutIndex(_ search: PendingSearch, match: Int64?, failure: String?) -> Effect {
        guard pendingSearch == search else { return .none }
        pendingSearch = nil
        guard entry?.id == search.collectionID, mode == .list || mode == .item else { return .none }
        if let failure {
            message = "cannot search: \(failure)"
            return .none
        }
        do {
            guard let match, let ordinal = try source?.ordinal(ofItem: match) else {
                message = "no match for \"\(SafeText.line(search.query, width: measure))\""
                return .none
            }
            // What an earlier search said is over; this one's own word (a wrap, the only match)
            // and how it was found are said together.
            message = nil
            try show(match: ordinal, isTheOnlyMatch: match == search.afterItem, backward: search.backward, query: search.query)
            // A read-only mirror (the one that may not fetch) builds no index: its searches all read.
            if options.canFetch {
                message = [message, "found without the search index, which is being built"].compactMap { $0 }.joined(separator: "; ")
            }
        } catch {
            message = "cannot search: \(ErrorDescription.line(error))"
        }
        return .none
    }

    /// Searches at once when the collection's search index is up to date; else the search runs
    /// without it in the background, while the index is brought up to date (the status line says
    /// `searching…`), and the screen stays live. A later search meanwhile takes its place.
    private mutating func startSearch(_ query: String, backward: Bool) -> Effect {
        guard let source, let id = entry?.id else { return .none }
        do {
            if try source.searchIsReady() {
                runSearch(query, backward: backward)
                return .none
            }
        } catch {
            message = "cannot search: \(ErrorDescription.line(error))"
            return .none
        }
        let from = mode == .item ? openRow : selectedRow
        let search = PendingSearch(collectionID: id, query: query, backward: backward, afterItem: from?.id)
        pendingSearch = search
        return .searchWithoutIndex(search, after: from?.at)
    }

    private mutating func runSearch(_ query: String, backward: Bool) {
        do { try search(query, backward: backward) } catch { message = "cannot search: \(ErrorDescription.line(error))" }
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
        try show(match: ordinal, isTheOnlyMatch: from?.id == match.id, backward: backward, query: query)
    }

    /// Selects row `ordinal`, a match (the only one when it is the item the search started
    /// after: it wrapped around to it); in an open item, opens it. A search that went past the
    /// end (the start, `backward`) and on from the other says so, as vim does.
    private mutating func show(match ordinal: Int, isTheOnlyMatch: Bool, backward: Bool, query: String) throws {
        if isTheOnlyMatch {
            message = "the only match for \"\(SafeText.line(query, width: measure))\""
        } else if backward ? ordinal > list.selected : ordinal < list.selected {
            message = backward ? "search hit the top, continued at the bottom" : "search hit the bottom, continued at the top"
        }
        list.select(ordinal)
        try loadWindow()
        if mode == .item, let row = selectedRow { try openItem(row) }
    }
}
