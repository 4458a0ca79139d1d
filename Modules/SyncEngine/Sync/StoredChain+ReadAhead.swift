import Foundation
import MirrorStore

/// A speed-up, skippable on a first reading (``SpeedUps/recordReadAhead``): the stored chain reads
/// its records half a window at a time, and the next half while the walk is in the one before, so
/// the walk does not stop at each window's end for the store's read (in PostgreSQL a round trip
/// and 256 rows, about 1 ms; 10 ms while a read also counted each page's items, before a page's
/// validator followed its items' moves); the first request waits for half a window, not a whole
/// one. The read runs in a `Task` of its own, kept in ``StoredChain/following``, awaited when the
/// walk reaches it, cancelled when the walk goes elsewhere or the pass ends.
extension StoredChain {
    /// Adds the records being read ahead to the window, which now starts at `index`, when they
    /// follow on from it and reach `index`; a walk that went elsewhere (a revisit) drops them.
    func append(_ next: (range: Range<Int>, reading: Task<Window, any Error>), from index: Int) async throws {
        let current = window.withLock { $0 }
        guard next.range.lowerBound == current.range.upperBound, (current.range.lowerBound..<next.range.upperBound).contains(index) else {
            return next.reading.cancel()
        }
        let following = try await next.reading.value
        let kept = current.records.filter { $0.key >= index }
        replace(with: Window(range: index..<following.range.upperBound, records: kept.merging(following.records) { old, _ in old },
                             isLast: following.isLast))
    }

    /// Starts reading the records after the window once the walk is in its last `readSize`.
    func readAheadIfDue(from index: Int) {
        guard readsAhead else { return }
        let current = window.withLock { $0 }
        guard !current.isLast, current.range.contains(index), current.range.upperBound - index <= readSize else { return }
        following.withLock { following in
            guard following == nil else { return }
            let range = current.range.upperBound..<current.range.upperBound + readSize
            following = (range, Task { try await self.records(in: range) })
        }
    }
}
