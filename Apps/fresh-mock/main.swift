// fresh-mock: the mock API server. All logic lives in the MockServer library; this program
// opens the mirror `--mirror` serves (SQLite, or PostgreSQL with the client linked here).
import Composition
import Foundation
import MockServer
import PostgresStore
import Storage
import StorageErrors

PostgresClient.current = .linked(open: PostgresMirror.open)
await FreshMockCommand.launch(mirrorOpener: { directory, store in
    let choice = try MirrorChoice.resolve(store)
    let location = StorageLocation.resolve(directory: directory)
    if choice == .sqlite, !FileManager.default.fileExists(atPath: location.itemDatabasePath) {
        throw StorageError.cannotOpen(path: location.itemDatabasePath, reason: "no mirror there: sync a collection into it first (fresh sync URL --db-dir DIR)")
    }
    return try await choice.open(location: location, forReading: true)
})
