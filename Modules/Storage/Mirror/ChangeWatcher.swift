import GRDB
import MirrorStore
import Synchronization

/// Tells whether another connection (another process, or this one's writer) changed the item
/// database since the last look: `PRAGMA data_version` on a connection of its own, reading no table.
final class ChangeWatcher: ChangeWatch {
    private let connection: DatabaseQueue
    private let lastVersion: Mutex<Int>

    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        connection = try DatabaseQueue(path: path, configuration: configuration)
        lastVersion = Mutex(try connection.read { try Int.fetchOne($0, sql: "PRAGMA data_version") } ?? 0)
    }

    func hasChanged() throws -> Bool {
        let version = try connection.read { try Int.fetchOne($0, sql: "PRAGMA data_version") } ?? 0
        return lastVersion.withLock { last in
            defer { last = version }
            return version != last
        }
    }
}
