import DedicatedThreads
import HTTPCache

/// A chain of requests (a sync's pages) and the thread that drives it (``TransferLoop`` says
/// how): ``loop`` is the executor the chain's tasks prefer, and ``transport`` sends on it. A
/// request sent from another thread is handed to the loop as a job; once the loop has stopped, a
/// request blocks a thread of its own as ``CurlTransport`` does anywhere else.
public final class TransferChain: Sendable {
    /// The executor of the chain's tasks (`Task(executorPreference:)`); stop it when they are done.
    public let loop: TransferLoop
    private let base: CurlTransport
    private let multi: CurlMulti

    init(name: String, transport: CurlTransport, multi: CurlMulti) {
        base = transport
        self.multi = multi
        loop = TransferLoop(name: name, io: multi, setUp: { multi.adoptCurrentThread() }, tearDown: { multi.releaseThread() })
    }

    /// The transport whose requests this chain's loop drives.
    public var transport: any HTTPTransport { ChainTransport(chain: self) }

    /// Starts `transfer` on the loop: now, from the loop's thread, else as the loop's next job.
    /// `false` when the loop has stopped (nothing was started).
    func start(_ transfer: CurlTransfer, done: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void) -> Bool {
        if multi.isOwnThread {
            multi.start(transfer, done: done)
            return true
        }
        return loop.run { [multi] in multi.start(transfer, done: done) }
    }

    /// Makes a loop waiting for I/O look at its transfers now (one was cancelled).
    func wake() { multi.wake() }

    private struct ChainTransport: HTTPTransport {
        let chain: TransferChain

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            try await chain.base.send(request, on: chain)
        }
    }
}
