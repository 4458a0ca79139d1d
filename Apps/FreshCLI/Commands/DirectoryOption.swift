import ArgumentParser
import Storage

/// `--db-dir`: the directory of both databases, for every command that opens one.
struct DirectoryOption: ParsableArguments {
    @Option(name: .customLong("db-dir"), help: ArgumentHelp(
        "Directory for both cache.sqlite and data.sqlite (default: FRESH_HOME, else the XDG directories).",
        valueName: "dir"))
    var databaseDirectory: String?

    var location: StorageLocation { StorageLocation.resolve(directory: databaseDirectory) }

    func validate() throws {
        // An unset shell variable (`--db-dir "$DIR"`) would otherwise mean the default location.
        if databaseDirectory == "" { throw ValidationError("--db-dir is empty: give a directory") }
    }

    /// The cache database alone, for `fresh cache …`; a damaged file moved aside is reported
    /// on stderr as `fresh get` reports it. `capacity` matters only to what stores or reports it.
    func openCacheDatabase(capacity: Int = CacheDatabase.defaultCapacity) throws -> CacheDatabase {
        let database = try CacheDatabase(path: location.cacheDatabasePath, capacity: capacity)
        if let warning = database.recoveryWarning { StandardError.write("fresh: warning: \(warning)") }
        return database
    }
}
