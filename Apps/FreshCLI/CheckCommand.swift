import ArgumentParser
import Foundation
import MirrorStore
import Storage
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

            Exit status: 0 when the file is undamaged (or was recovered), 6 when it is damaged \
            or cannot be opened.
            """
    )

    @Flag(help: "Save what can be read into a new database and use it from now on.")
    var recover = false

    @Flag(help: "Print a JSON object: path, damaged, problems (and what --recover saved).")
    var json = false

    @OptionGroup var storage: StorageOptions

    func execute() async throws {
        let path = storage.location.itemDatabasePath
        let problems = try MirrorCheck.problems(at: path)
        if json { return try printJSON(path: path, problems: problems) }
        if problems == ["ok"] {
            print("\(path): no damage found")
            return
        }
        for problem in problems.prefix(10) { StandardError.write("fresh: \(path): \(problem)") }
        guard recover else {
            StandardError.write("fresh: the database is damaged; 'fresh check --recover' saves what can be read")
            throw ExitCode(6)
        }
        let recovery: MirrorCheck.Recovery
        do {
            recovery = try MirrorCheck.recover(at: path)
        } catch StorageError.corrupted(_, let reason) {
            StandardError.write("fresh: \(path): nothing could be recovered (\(reason)); the damaged file is left as it is")
            throw ExitCode(6)
        }
        print("recovered \(Plural.count(recovery.collections, "collection")) and \(Plural.count(recovery.items, "item")) into \(path)"
              + (recovery.lostRows > 0 ? "; \(Plural.count(recovery.lostRows, "row")) could not be read" : "")
              + "; the damaged file is kept as \(recovery.damagedCopy)")
    }

    /// `--json`: the check's finding, then (with --recover) what was saved; the exit status is the same as without it.
    private func printJSON(path: String, problems: [String]) throws {
        let damaged = problems != ["ok"]
        var object: [String: Any] = ["path": path, "damaged": damaged, "problems": damaged ? problems : []]
        defer { try? JSONOutput.print(object) }
        guard damaged else { return }
        guard recover else { throw ExitCode(6) }
        do {
            let recovery = try MirrorCheck.recover(at: path)
            object["recovered"] = ["collections": recovery.collections, "items": recovery.items, "lostRows": recovery.lostRows,
                                   "damagedCopy": recovery.damagedCopy] as [String: Any]
        } catch StorageError.corrupted(_, let reason) {
            object["recovered"] = NSNull()
            object["reason"] = reason
            throw ExitCode(6)
        }
    }
}
