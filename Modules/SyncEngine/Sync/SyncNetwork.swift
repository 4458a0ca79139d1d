import Foundation
import HTTPCache
import Pacing

/// What a sync needs of the network, given by the composition root (`FreshServices`).
public protocol SyncNetwork: Sendable {
    /// Where every request waits its turn per origin.
    var gate: OriginGate { get }
    /// What waits (the gate's holds, retries' backoffs) wait on.
    var clock: PacingClock { get }
    /// A chain for one pass's page requests; ``PageChain/end()`` it when the pass is over.
    func openPageChain(named name: String) -> PageChain
    /// The page cache's validators, as a pass reads and hands them over.
    var pageValidators: any PageValidators { get }
    /// The speed-ups a pass may use (``SpeedUps``; none: the plain path).
    var speedUps: SpeedUps { get }
}

/// The seam between a sync and the page cache (`PageValidatorStorage`, in Composition, tells it whole).
public protocol PageValidators: Sendable {
    /// Lets the page client ask conditionally for these pages, with the ETags the mirror keeps.
    func remember(_ tags: [PageETag])
    /// Forgets what ``remember(_:)`` was told of these pages (a pass has gone past them).
    func forget(_ urls: [URL])
    /// Waits until the page client's cache writes so far are written.
    func drain()
}

/// The client one pass fetches its pages with, and the executor its tasks run on: a
/// `TransferChain`'s loop, or none (the tasks run where they are, each request blocking a thread).
public struct PageChain: Sendable {
    public let client: CachingClient
    public let executor: (any TaskExecutor)?
    private let ending: @Sendable () -> Void

    public init(client: CachingClient, executor: (any TaskExecutor)?, end: @escaping @Sendable () -> Void = {}) {
        self.client = client
        self.executor = executor
        ending = end
    }

    /// Stops the chain's thread once its jobs have run.
    public func end() { ending() }
}

/// A page's URL and the `ETag` the mirror keeps for it.
public struct PageETag: Sendable, Equatable {
    public var url: URL
    public var tag: String
}
