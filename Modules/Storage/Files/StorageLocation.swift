import Foundation

/// Where the two databases live (docs/architecture.md, "Two stores, two lifetimes"): the HTTP
/// cache, disposable, under `$XDG_CACHE_HOME`, and the synced items, the source of truth, under
/// `$XDG_DATA_HOME`; an explicit directory (`--db-dir`) or `FRESH_HOME` puts both in one.
public struct StorageLocation: Sendable, Equatable {
    public var cacheDatabasePath: String
    public var itemDatabasePath: String

    public init(cacheDatabasePath: String, itemDatabasePath: String) {
        self.cacheDatabasePath = cacheDatabasePath
        self.itemDatabasePath = itemDatabasePath
    }

    /// Both databases in one directory.
    public init(directory: String) {
        let base = URL(fileURLWithPath: directory)
        self.init(cacheDatabasePath: base.appendingPathComponent("cache.sqlite").path,
                  itemDatabasePath: base.appendingPathComponent("data.sqlite").path)
    }

    /// Resolves the locations: the explicit directory, else `FRESH_HOME`, else the XDG
    /// directories. The environment is read only when no directory is given (copying it costs
    /// more than the rest of a cached `fresh get --db-dir`'s bookkeeping).
    public static func resolve(directory: String?,
                               environment readEnvironment: @autoclosure () -> [String: String] = ProcessInfo.processInfo.environment) -> StorageLocation {
        if let directory, !directory.isEmpty { return StorageLocation(directory: directory) }
        let environment = readEnvironment()
        if let home = environment["FRESH_HOME"], !home.isEmpty { return StorageLocation(directory: home) }
        let userHome = environment["HOME"] ?? NSHomeDirectory()
        let cacheHome = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(userHome)/.cache"
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(userHome)/.local/share"
        return StorageLocation(cacheDatabasePath: "\(cacheHome)/fresh/cache.sqlite",
                               itemDatabasePath: "\(dataHome)/fresh/data.sqlite")
    }
}
