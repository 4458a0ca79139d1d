import Storage
import Synchronization

/// The cache file a `fresh get` line names, opened on one core while ArgumentParser reads the
/// line on the other: a cached `fresh get` spends most of its own time on those two.
///
/// Only a file that is ready as it is gets opened (``CacheDatabase/openIfReady(path:)``): nothing
/// is created, migrated or moved before the line is known to be valid. ``take(for:capacity:)``
/// checks the guessed location against the parsed options; a mismatch leaves the early database
/// unused, and the command opens its own as it would have.
enum EarlyCacheOpen {
    private static let opening = Mutex<Task<CacheDatabase?, Never>?>(nil)

    /// Starts opening the cache for `arguments` when they run `fresh get`.
    static func start(for arguments: [String]) {
        guard arguments.first == GetCommand.configuration.commandName else { return }
        let options = arguments.prefix { $0 != "--" }
        // A line that sets the capacity is left to the command (a rare line; the guess would need it).
        guard !options.contains(where: { $0 == "--cache-size" || $0.hasPrefix("--cache-size=") }) else { return }
        let directory = guessedDirectory(in: Array(options))
        // Detached: on a thread of the pool other than the parser's, whichever context starts it.
        let task = Task.detached {
            CacheDatabase.openIfReady(path: StorageLocation.resolve(directory: directory).cacheDatabasePath)
        }
        opening.withLock { $0 = task }
    }

    /// The database opened early, when it is the one `location` and `capacity` name.
    static func take(for location: StorageLocation, capacity: Int) async -> CacheDatabase? {
        guard let task = opening.withLock({ $0.take() }), let database = await task.value else { return nil }
        guard database.path == location.cacheDatabasePath, database.capacity == capacity else { return nil }
        return database
    }

    /// The value of the last `--db-dir` among `options`.
    static func guessedDirectory(in options: [String]) -> String? {
        var directory: String?
        for (index, option) in options.enumerated() {
            if option == "--db-dir", index + 1 < options.count {
                directory = options[index + 1]
            } else if option.hasPrefix("--db-dir=") {
                directory = String(option.dropFirst("--db-dir=".count))
            }
        }
        return directory
    }
}
