import ArgumentParser
import Foundation
import MirrorStore
import Storage
import StorageErrors
import SyncEngine

/// `fresh check`: is the item database damaged, and what can be saved.
struct CheckCommand: FreshSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the item database for damage; --recover saves what can be read into a new file.",
        discussion: """
            A damaged data.sqlite is never written to: syncs refuse it until it checks clean or \
            is recovered. --recover copies every readable collection and item into a new file, \
            keeps the damaged one beside it (data.sqlite.damaged-TIME), and puts the new one in \
            its place; the next sync of each collection reads every page again.

            In a sound file, and with --store postgresql://… (or FRESH_STORE) in the server's \
            mirror, it then checks what the mirror promises: in each collection whose last \
            sync was complete, every current item before the last page on a page that exists \
            and every page with the items it listed; the item count kept at a sync's end equal \
            to the items stored while nothing changed since (PostgreSQL: every migration \
            applied, too). A broken promise is not damage: nothing is marked and syncs go on. \
            The server's own files are the server's to check; --recover is for a damaged SQLite \
            file only.

            Exit status: 0 when the file is undamaged (or was recovered) and keeps its \
            promises, 6 when it is damaged, breaks a promise, or cannot be opened.
            """
    )

    @Flag(help: "Save what can be read into a new database and use it from now on.")
    var recover = false
    @Flag(help: "Print a JSON object: path, damaged (the SQLite file), problems (and what --recover saved).")
    var json = false

    @OptionGroup var storage: StorageOptions

    func validate() throws {
        if recover, case .postgresql = try? storage.mirrorChoice() {
            throw ValidationError("--recover saves a damaged SQLite file; a PostgreSQL mirror is restored with the server's own tools (backups, pg_dump)")
        }
    }

    func execute() async throws {
        if case .postgresql = try storage.mirrorChoice() { return try await checkServer() }
        let path = storage.location.itemDatabasePath
        let damage = try MirrorCheck.problems(at: path)
        let damaged = damage != ["ok"]
        let problems = damaged ? damage : try await Self.brokenPromises(at: path)
        let recovery: Result<MirrorCheck.Recovery, RecoveryFailed>? = damaged && recover ? Self.recover(at: path) : nil
        if json { try printJSON(path: path, problems: problems, damaged: damaged, recovery: recovery) } else {
            printLines(path: path, problems: problems, damaged: damaged, recovery: recovery)
        }
        if !problems.isEmpty, (try? recovery?.get()) == nil { throw ExitCode(6) }
    }

    /// What a sound file's mirror promises and does not hold, opened as `fresh items` opens it (a
    /// file of an older schema is brought up to date first). In a directory that cannot be
    /// written, a file of an older schema cannot be read as a mirror: its promises go unchecked.
    private static func brokenPromises(at path: String) async throws -> [String] {
        let mirror: SQLiteMirror
        do {
            mirror = try SQLiteMirror.openForReading(path: path)
        } catch StorageError.cannotOpen {
            return []
        }
        let found = Result { try mirror.brokenPromises() }
        await mirror.close()
        return try found.get()
    }

    /// A PostgreSQL mirror: what the store's own check finds.
    private func checkServer() async throws {
        let (location, problems) = try await storage.withMirror { store in (store.location, try await store.problems()) }
        if json { try printJSON(path: location, problems: problems, damaged: false, recovery: nil) } else {
            printLines(path: location, problems: problems, damaged: false, recovery: nil)
        }
        if !problems.isEmpty { throw ExitCode(6) }
    }

    /// Why nothing could be recovered.
    struct RecoveryFailed: Error { var reason: String }

    static func recover(at path: String) -> Result<MirrorCheck.Recovery, RecoveryFailed> {
        Result { try MirrorCheck.recover(at: path) }.mapError { error in
            if case StorageError.corrupted(_, let reason) = error { return RecoveryFailed(reason: reason) }
            return RecoveryFailed(reason: "\(error)")
        }
    }

    private func printLines(path: String, problems: [String], damaged: Bool, recovery: Result<MirrorCheck.Recovery, RecoveryFailed>?) {
        guard !problems.isEmpty else { return StandardOutput.line("\(path): no damage found") }
        for problem in problems.prefix(10) { StandardError.write("fresh: \(path): \(problem)") }
        switch recovery {
        case nil where !damaged:
            if recover { StandardError.write("fresh: \(path) is not damaged: --recover saves a damaged file, and saved nothing") }
        case nil: StandardError.write("fresh: the database is damaged; 'fresh check --recover' saves what can be read")
        case .failure(let failed)?:
            StandardError.write("fresh: \(path): nothing could be recovered (\(failed.reason)); the damaged file is left as it is")
        case .success(let recovered)?:
            StandardOutput.line("recovered \(Plural.count(recovered.collections, "collection")) and \(Plural.count(recovered.items, "item")) into \(path)"
                  + (recovered.lostRows > 0 ? "; \(Plural.count(recovered.lostRows, "row")) could not be read" : "")
                  + "; the damaged file is kept as \(recovered.damagedCopy)")
        }
    }

    /// `--json`: the check's finding, then (with --recover) what was saved.
    private func printJSON(path: String, problems: [String], damaged: Bool, recovery: Result<MirrorCheck.Recovery, RecoveryFailed>?) throws {
        var object: [String: Any] = ["path": path, "damaged": damaged, "problems": problems]
        switch recovery {
        case nil: break
        case .failure(let failed)?: object["recovered"] = NSNull(); object["reason"] = failed.reason
        case .success(let recovered)?:
            object["recovered"] = ["collections": recovered.collections, "items": recovered.items, "lostRows": recovered.lostRows,
                                   "damagedCopy": recovered.damagedCopy] as [String: Any]
        }
        try JSONOutput.print(object)
    }
}
