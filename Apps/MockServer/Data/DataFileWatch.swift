import Foundation
import Synchronization

/// `--watch`: the `--data` file read again when it changed, as json-server's `--watch` does. The
/// file is looked at when a request comes (one `stat`), so the answer after a save is always the
/// file's, with no thread and no timer. A file that cannot be served leaves the data as it was,
/// and says why on stderr.
final class DataFileWatch: Sendable {
    let path: String
    let keyField: String
    /// The seed the data's random streams start from (``MockData/init(collections:seed:)``).
    let seed: UInt64
    /// What changes when the file is written or replaced: inode, size, modification time.
    private let seen: Mutex<[Int]>

    init(path: String, keyField: String, seed: UInt64) {
        self.path = path
        self.keyField = keyField
        self.seed = seed
        self.seen = Mutex(Self.signature(of: path))
    }

    private static func signature(of path: String) -> [Int] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        return [Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
    }

    /// The file's data when it changed since the last look; `nil` when it did not, or when it
    /// cannot be served now (said once per change).
    func reloaded() -> MockData? {
        let now = Self.signature(of: path)
        guard seen.withLock({ seen in defer { seen = now }; return seen != now }) else { return nil }
        do {
            return MockData(collections: try DataFile.load(path: path, keyField: keyField), seed: seed)
        } catch {
            FileHandle.standardError.write(Data("fresh-mock: --watch: \(error); still serving what it held before\n".utf8))
            return nil
        }
    }
}
