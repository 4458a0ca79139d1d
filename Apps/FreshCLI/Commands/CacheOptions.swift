import ArgumentParser
import Storage

/// `--cache-size`: the HTTP cache's capacity, for the commands that store responses in it
/// (`get`, `sync`) or trim it (`cache`, `explain`).
struct CacheSizeOption: ParsableArguments {
    @Option(name: .customLong("cache-size"), help: ArgumentHelp(
        "Byte capacity of the HTTP cache, e.g. 100M, 2G, 500K (default 100M).", valueName: "size"),
        transform: { text in
            guard let bytes = ByteCount.parse(text) else { throw ValidationError("invalid size '\(text)': use a number with an optional K, M or G suffix") }
            return bytes
        })
    var capacity: Int = CacheDatabase.defaultCapacity
}

/// Where the HTTP cache lives and how large it may grow, for the commands that use the cache and
/// never the mirror: `--db-dir` and `--cache-size`.
struct CacheOptions: ParsableArguments {
    @OptionGroup var directory: DirectoryOption
    @OptionGroup var size: CacheSizeOption

    var location: StorageLocation { directory.location }
    var cacheCapacity: Int { size.capacity }

    /// The cache database alone, for `fresh cache …`; a damaged file moved aside is reported
    /// on stderr as `fresh get` reports it.
    func openCacheDatabase() throws -> CacheDatabase {
        let database = try CacheDatabase(path: location.cacheDatabasePath, capacity: cacheCapacity)
        if let warning = database.recoveryWarning { StandardError.write("fresh: warning: \(warning)") }
        return database
    }
}
