import Foundation
import StorageErrors

/// The file beside a damaged item database (`data.sqlite.damaged`) that keeps every later
/// run from writing to it, even one that would not touch the damaged pages. It holds when and
/// why the damage was found; `fresh check` removes it once the file checks clean again, and
/// `fresh check --recover` replaces the database.
public enum DamageMarker {
    /// The marker's path for the database at `path`.
    public static func markerPath(for path: String) -> String { path + ".damaged" }

    /// Records that the database at `path` was found damaged (best effort: a read-only
    /// directory keeps no marker, but nothing can be written there anyway).
    static func mark(_ path: String, reason: String) {
        let text = "\(ISO8601DateFormatter().string(from: Date())) \(reason)\n"
        _ = FileManager.default.createFile(atPath: markerPath(for: path), contents: Data(text.utf8))
    }

    /// Throws ``StorageError/corrupted(path:reason:)`` when the database at `path` is marked.
    static func refuseIfMarked(_ path: String) throws {
        if let damage = recordedDamage(of: path) { throw damage }
    }

    /// The damage an earlier run found in the database at `path`, as the error that says it;
    /// `nil` when the file is not marked.
    public static func recordedDamage(of path: String) -> StorageError? {
        guard let data = FileManager.default.contents(atPath: markerPath(for: path)) else { return nil }
        let recorded = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return StorageError.corrupted(path: path, reason: "found damaged before: \(recorded)")
    }

    static func isMarked(_ path: String) -> Bool { access(markerPath(for: path), F_OK) == 0 }

    /// Forgets the damage (after a clean check or a recovery).
    static func clear(_ path: String) { try? FileManager.default.removeItem(atPath: markerPath(for: path)) }
}
