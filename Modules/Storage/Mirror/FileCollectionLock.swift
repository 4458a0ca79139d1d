import Foundation
import HTTPFields
import MirrorStore
import StorageErrors
import Synchronization

/// Serialises the syncs of one collection across processes, for the SQLite mirror: a `flock`
/// on a lock file beside it (`data.sqlite.locks/<digest>.lock`). The kernel releases it when the
/// holder exits, even by `kill -9`, so a crash never leaves a collection locked.
///
/// Concurrent syncs of one collection would otherwise each end their pass by deleting what
/// the other wrote; with the lock, a second sync waits, then finds every page fresh or a 304.
final class FileCollectionLock: CollectionLock {
    private let descriptor: Int32
    private let held = Atomic(true)

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { unlock() }
    func release() async { unlock() }

    private func unlock() {
        guard held.exchange(false, ordering: .acquiringAndReleasing) else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Takes the lock of the collection `identity` of the mirror at `databasePath`, waiting while
    /// another process holds it; `onWait` is called once if it does, with the holder (`process 1234`).
    static func acquire(identity: String, beside databasePath: String, onWait: (String?) -> Void) async throws -> FileCollectionLock {
        let directory = databasePath + ".locks"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let path = "\(directory)/\(FNV1a64.hex(Array(identity.utf8))).lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        var waited = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw StorageError.cannotOpen(path: path, reason: reason)
            }
            if !waited {
                waited = true
                onWait(holder(descriptor).map { "process \($0)" })
            }
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                close(descriptor)
                throw error
            }
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.utf8.count, 0)
        return FileCollectionLock(descriptor: descriptor)
    }

    /// The process id the holder wrote into the file.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
