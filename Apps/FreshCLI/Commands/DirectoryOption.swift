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
}
