import ArgumentParser
import Storage

/// `--cache-size`: the HTTP cache's capacity, for the commands that store responses in it
/// (`get`, `sync`) or report it (`cache stats`).
struct CacheSizeOption: ParsableArguments {
    @Option(name: .customLong("cache-size"), help: ArgumentHelp(
        "Byte capacity of the HTTP cache, e.g. 100M, 2G, 500K (default 100M).", valueName: "size"),
        transform: { text in
            guard let bytes = ByteCount.parse(text) else { throw ValidationError("invalid size '\(text)': use a number with an optional K, M or G suffix") }
            return bytes
        })
    var capacity: Int = CacheDatabase.defaultCapacity
}

/// Where the HTTP cache lives and how large it may grow, for the commands that store responses in
/// it (`get`) or report its capacity (`cache stats`): `--db-dir` and `--cache-size`.
struct CacheOptions: ParsableArguments {
    @OptionGroup var directory: DirectoryOption
    @OptionGroup var size: CacheSizeOption

    var location: StorageLocation { directory.location }
    var cacheCapacity: Int { size.capacity }

    func openCacheDatabase() throws -> CacheDatabase { try directory.openCacheDatabase(capacity: size.capacity) }
}
