import Glibc

/// A pipe whose read end the UI thread's wait for a key watches beside the terminal: a message
/// posted to the ``Mailbox`` writes a byte to it, so news from the background (a page stored, a
/// search's answer) is drawn at once rather than when the wait gives up (``Screen/pollMilliseconds``).
final class WakeSignal: Sendable {
    /// The read end: readable once set, until ``clear()``; `-1` if no pipe could be made (the
    /// wait then ends only at its timeout, as before).
    let descriptor: Int32
    private let writeEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        } else {
            ends = [-1, -1]
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    /// Sets the signal; from any thread. A full pipe is set already.
    func set() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Clears the signal, after the waiter woke.
    func clear() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(descriptor, &bytes, bytes.count) > 0 {}
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if writeEnd >= 0 { close(writeEnd) }
    }
}
