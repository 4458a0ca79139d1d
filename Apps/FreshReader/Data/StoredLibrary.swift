import Foundation
import JSON
import MirrorStore
import SyncEngine

/// The reader's view of the mirror: collections and windows of rows, through the window reads
/// of its ``MirrorStore`` (an index range and `LIMIT`, never a whole table), each waited for on
/// the UI thread (``BlockingCall``). Its one write, the shown mark, runs behind the screen.
public struct StoredLibrary: ReaderLibrary {
    let store: any MirrorReading & ShownMarks
    /// The member rows are titled with (`--title`), or `nil` to choose from the items.
    let title: JSONPath?
    /// Where the shown marks are written, so the session waits for them before the store closes.
    let work: BackgroundWork

    public func collections() throws -> [CollectionEntry] {
        try BlockingCall.wait {
            // Counts through the order index; no item JSON is read.
            var entries: [CollectionEntry] = []
            for record in try await store.collections() {
                entries.append(CollectionEntry(record, itemCount: try await store.itemCount(in: record.id)))
            }
            return entries
        }
    }

    public func open(_ collectionID: Int64) throws -> any CollectionReading {
        let sample = try BlockingCall.wait { try await store.firstItemJSON(in: collectionID) }
        return StoredCollection(store: store, collectionID: collectionID, fields: ItemFields.choose(for: sample, title: title), work: work)
    }
}

/// One collection of the mirror, read a window at a time.
struct StoredCollection: CollectionReading {
    let store: any MirrorReading & ShownMarks
    let collectionID: Int64
    let fields: RowFields
    let work: BackgroundWork

    func entry() throws -> CollectionEntry {
        try BlockingCall.wait {
            guard let record = try await store.collection(id: collectionID) else { throw CollectionRemoved() }
            return CollectionEntry(record, itemCount: try await store.itemCount(in: collectionID))
        }
    }

    func rows(from start: ItemPosition?, limit: Int) throws -> [ListRow] {
        try BlockingCall.wait { try await store.rows(in: collectionID, from: start, limit: limit, fields: fields).map(ListRow.init) }
    }

    func rows(before end: ItemPosition, limit: Int) throws -> [ListRow] {
        try BlockingCall.wait { try await store.rows(in: collectionID, before: end, limit: limit, fields: fields).map(ListRow.init) }
    }

    func rows(atOffset offset: Int, limit: Int) throws -> [ListRow] {
        try BlockingCall.wait { try await store.rows(in: collectionID, atOffset: offset, limit: limit, fields: fields).map(ListRow.init) }
    }

    func ordinal(ofItem id: Int64) throws -> Int? {
        try BlockingCall.wait {
            guard let item = try await store.item(id: id) else { return nil }
            return try await store.ordinal(of: ItemPosition(pageIndex: item.pageIndex, position: item.position), in: collectionID)
        }
    }

    func json(ofItem id: Int64) throws -> String? {
        try BlockingCall.wait { try await store.item(id: id)?.json }
    }

    /// Written in the background: a write may wait for another process's (a sync's) to end,
    /// and the first frame must not. A mark that cannot be written is left as it was.
    func markShown(upTo sequence: Int) {
        work.track(Task { [store, collectionID] in try? await store.markShown(collectionID, upTo: sequence) })
    }

    func searchIsReady() throws -> Bool {
        try BlockingCall.wait { try await store.searchIndexIsCurrent(of: collectionID) }
    }

    func firstMatch(of query: String, after row: ListRow?, backward: Bool) throws -> ListRow? {
        try BlockingCall.wait {
            try await store.firstMatch(of: query, in: collectionID, after: row?.at, backward: backward, fields: fields).map(ListRow.init)
        }
    }
}

extension ListRow {
    init(_ row: ItemRow) {
        self.init(id: row.id, key: row.key.description, at: row.at, title: row.title, subtitle: row.subtitle,
                  changedSequence: row.changedSequence)
    }
}

extension CollectionEntry {
    init(_ record: CollectionRecord, itemCount: Int) {
        self.init(id: record.id, name: record.name, url: record.url, itemCount: itemCount,
                  lastSync: record.lastSyncAt.map(Date.init(timeIntervalSince1970:)), lastError: record.lastError,
                  // Complete once, every item of that pass is stored: a later pass left unfinished
                  // (a refresh that failed or was cut short) is finished by a refresh, not paged.
                  hasNextPage: record.plan == nil || !record.passComplete && record.lastCompleteAt == nil,
                  changeSequence: record.changeSequence,
                  shownSequence: record.shownSequence)
    }
}
