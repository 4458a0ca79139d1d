import Fetcher
import Foundation
import Pagination
import SyncEngine

extension ReaderState {
    // MARK: Opening

    /// Opens collection `id`; `entry` is what the collection list just read of it, if it did.
    mutating func openCollection(_ id: Int64, entry known: CollectionEntry? = nil) throws {
        let source = try library.open(id)
        let entry = try known ?? source.entry()
        self.source = source
        self.entry = entry
        // What changed since the collection was last shown, in this run or an earlier one, is news.
        seenSequence = entry.shownSequence ?? entry.changeSequence
        seenItems = []
        noteShown()
        refresh = .idle
        refreshSummary = nil
        window.invalidate()
        list = ListNavigation(count: rowCount, height: Self.listHeight(size, header: false))
        mode = .list
        try loadWindow()
    }

    /// Records the collection as shown now, so the next run marks only later changes (a write
    /// only when there were changes). A database that cannot be written (a read-only directory)
    /// keeps its marks: nothing is lost.
    private func noteShown() {
        guard let source, let entry, entry.shownSequence != entry.changeSequence else { return }
        source.markShown(upTo: entry.changeSequence)
    }

    mutating func closeCollection() {
        source = nil
        entry = nil
        window.invalidate()
        mode = .collections
    }

    // MARK: The list

    /// The stored items of the open collection.
    public var itemCount: Int { entry?.itemCount ?? 0 }

    /// The row after the last item: the next page loading or failed, more to load, or the end.
    public var footer: String? {
        guard let entry else { return nil }
        switch paging {
        case .loading: return "loading the next page…"
        // The key first: a long reason is cut at the screen's edge, and the way out must stay on screen.
        case .failed(let reason): return "the next page failed (R retries): \(reason)"
        case .idle:
            guard entry.hasNextPage else { return entry.itemCount == 0 ? nil : "end of \(entry.name) · \(Grouped.count(entry.itemCount, "item"))" }
            return options.canFetch ? "more on the server: loads as you reach it" : "more on the server (read-only: not fetched)"
        }
    }

    /// Items plus the footer row.
    var rowCount: Int { itemCount + (footer == nil ? 0 : 1) }

    /// The selected item's row, when an item (not the footer) is selected.
    public var selectedRow: ListRow? { window.row(list.selected) }

    mutating func loadWindow() throws {
        guard let source else { return }
        try window.load(top: list.top, height: list.height, count: itemCount, from: source)
    }

    mutating func listAction(_ action: Keymap.Action, count: Int? = nil) throws -> Effect {
        switch action {
        case .open:
            if let row = selectedRow { try openItem(row) }
            if list.selected == itemCount, case .failed = paging { return retryPage() }
            return .none
        case .retryPage: return retryPage()
        case .last where itemCount > 0 && count != nil:
            // 50G: row 50, or the last item when there are fewer (the next page then loads).
            list.select(min(count ?? 1, itemCount) - 1)
        case .last where itemCount > 0:
            // The last item, with the row after it (loading, failed, end) in sight.
            list.select(itemCount - 1)
            list.scroll(toTop: list.count - list.height)
        default: list.apply(action, count: count)
        }
        try loadWindow()
        return prefetchIfNear()
    }

    // MARK: Paging

    /// The open collection's next page: idle, loading, failed.
    public var paging: LoadState { entry.flatMap { prefetches[$0.id]?.state } ?? .idle }

    /// Asks for the next page when the ``Prefetch`` rule says so (a failed page waits for `R`);
    /// no page while a refresh runs.
    mutating func prefetchIfNear() -> Effect {
        guard let entry, options.canFetch, refresh != .loading else { return .none }
        var rule = prefetches[entry.id] ?? Prefetch(distance: options.prefetchDistance)
        guard rule.startIfNear(selected: min(list.selected, itemCount - 1), loaded: itemCount, hasMore: entry.hasNextPage) else {
            return .none
        }
        return loadNextPage(entry.id, rule)
    }

    mutating func retryPage() -> Effect {
        guard let entry, var rule = prefetches[entry.id], rule.retry() else {
            message = paging == .loading ? "the next page is on its way" : "no page to retry"
            return .none
        }
        return loadNextPage(entry.id, rule)
    }

    private mutating func loadNextPage(_ id: Int64, _ rule: Prefetch) -> Effect {
        prefetches[id] = rule
        list.reshape(count: rowCount, height: list.height)
        return .loadNextPage(collectionID: id)
    }

    mutating func startRefresh() -> Effect {
        guard let entry else {
            message = "nothing to refresh here"
            return .none
        }
        guard options.canFetch else {
            message = "read-only data directory: showing what is stored, nothing is fetched"
            return .none
        }
        let pages = Set(window.rows.map(\.at.pageIndex)).sorted()
        return .refresh(collectionID: entry.id, firstPages: pages)
    }

    // MARK: News from the background

    /// A page load of collection `id` ended: `failure` is why it failed, `nil` when stored.
    public mutating func pageLoaded(collectionID id: Int64, failure: String?) -> Effect {
        prefetches[id]?.finished(failure: failure)
        guard id == entry?.id else { return .none }
        reloadQuietly()
        // What the user scrolled into is not news: only later writes are marked.
        if failure == nil, let entry {
            seenSequence = entry.changeSequence
            noteShown()
        }
        return failure == nil ? prefetchIfNear() : .none
    }

    /// The refresh of collection `id` moved on.
    public mutating func refreshChanged(collectionID id: Int64, status: FetchState<CollectionEntry>.Status, summary: String?) -> Effect {
        guard id == entry?.id else { return .none }
        refresh = status
        if let summary { refreshSummary = summary }
        if status == .loading { refreshSummary = nil }
        guard status != .loading else { return .none }
        reloadQuietly()
        return prefetchIfNear()
    }

    /// Reads what is on screen again after another connection wrote to the database: the
    /// collection's count and state, then the window, keeping the selection on the same item.
    public mutating func reload() throws {
        if mode == .collections || entry == nil {
            let selectedID = collections.indices.contains(collectionNavigation.selected) ? collections[collectionNavigation.selected].id : nil
            collections = try library.collections()
            collectionNavigation.reshape(count: collections.count, height: collectionNavigation.height)
            if let index = collections.firstIndex(where: { $0.id == selectedID }) { collectionNavigation.select(index) }
            if entry == nil, mode == .list, let first = collections.first { try openCollection(first.id) }
            return
        }
        guard var source else { return }
        let selectedID = selectedRow?.id
        let offset = list.selected - list.top
        let wasEmpty = itemCount == 0
        do {
            entry = try source.entry()
        } catch let removed as CollectionRemoved {
            // Another process removed it: back to what is stored, saying so (its screen, left
            // as it was, never changed again, and its rows read as blanks).
            closeCollection()
            openRow = nil
            message = removed.description
            return try reload()
        }
        if wasEmpty, itemCount > 0, let id = entry?.id {
            // The rows' title and second field are chosen from the first item.
            source = try library.open(id)
            self.source = source
        }
        list.reshape(count: rowCount, height: list.height)
        if let selectedID, let ordinal = try source.ordinal(ofItem: selectedID) {
            list.select(ordinal)
            list.scroll(toTop: ordinal - offset)
        }
        window.invalidate()
        try loadWindow()
        if mode == .item, let openRow {
            if try source.ordinal(ofItem: openRow.id) == nil {
                mode = .list
                self.openRow = nil
                message = "the item was removed"
            } else {
                try layOutItem(window.rows.first { $0.id == openRow.id } ?? openRow)
            }
        }
    }

    private mutating func reloadQuietly() {
        do { try reload() } catch { message = "cannot read the database: \(ErrorDescription.line(error))" }
    }
}
