import Dispatch
import Foundation
import Synchronization

/// The request log: requests hand their ``AccessLogEntry`` over in constant time, and one
/// thread of its own formats and writes them, in order, in batches: woken by the first line
/// after a quiet spell, it waits ``batchInterval`` for more before writing. So answering never
/// waits for a slow terminal or pipe, and under load many lines cost one wake-up and one `write`
/// (a wake-up per request would cost more than the request).
final class AccessLog: Sendable {
    /// Most lines waiting to be written; beyond it lines are dropped, and the next line written says how many.
    static let capacity = 100_000
    /// How long the writer lets lines gather after the first one: immediate to a reader, yet a batch under load.
    static let batchInterval: TimeInterval = 0.05

    private struct Pending {
        var entries: [AccessLogEntry] = []
        var dropped = 0
        var closing = false
    }

    private let pending = Mutex(Pending())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// A log writing to `destination`; `nil` for `.off`.
    init?(_ destination: AccessLogDestination) {
        let write: @Sendable ([UInt8]) -> Void
        switch destination {
        case .off: return nil
        case .standardError: write = Self.writeToStandardError
        case .lines(let handle):
            write = { chunk in chunk.split(separator: UInt8(ascii: "\n")).forEach { handle(String(decoding: $0, as: UTF8.self)) } }
        }
        let thread = Thread { [self] in self.drain(into: write) }
        thread.name = "fresh-mock access log"
        thread.start()
    }

    /// Queues one line.
    func record(_ entry: AccessLogEntry) {
        let wasEmpty = pending.withLock { pending -> Bool in
            guard pending.entries.count < Self.capacity else {
                pending.dropped += 1
                return false
            }
            pending.entries.append(entry)
            return pending.entries.count == 1
        }
        if wasEmpty { wakeUp.signal() }
    }

    /// Writes every queued line and stops the writer thread; later entries are ignored.
    func close() {
        let alreadyClosing = pending.withLock { pending in
            defer { pending.closing = true }
            return pending.closing
        }
        guard !alreadyClosing else { return }
        wakeUp.signal()
        finished.wait()
    }

    // MARK: The writer thread

    private func drain(into write: @Sendable ([UInt8]) -> Void) {
        var chunk: [UInt8] = []
        while true {
            wakeUp.wait()
            if !pending.withLock({ $0.closing }) { Thread.sleep(forTimeInterval: Self.batchInterval) }
            let (entries, dropped, closing) = pending.withLock { pending in
                defer { pending.entries.removeAll(keepingCapacity: true); pending.dropped = 0 }
                return (pending.entries, pending.dropped, pending.closing)
            }
            chunk.removeAll(keepingCapacity: true)
            for entry in entries {
                entry.append(to: &chunk)
                chunk.append(UInt8(ascii: "\n"))
            }
            if dropped > 0 { chunk += Array("(\(dropped) request log lines dropped: the log could not keep up)\n".utf8) }
            if !chunk.isEmpty { write(chunk) }
            if closing {
                finished.signal()
                return
            }
        }
    }

    /// Writes `chunk` to file descriptor 2, retrying short writes; gives up on errors (a closed stderr).
    private static func writeToStandardError(_ chunk: [UInt8]) {
        var bytes = chunk[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
