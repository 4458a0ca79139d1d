import HTTPCache

/// A transport whose every request passes an ``OriginGate`` first, and whose every answer
/// tells the gate what the origin stated. Only requests that go to the network pass it: an
/// answer from the cache costs no turn and no budget.
public struct PacedTransport: HTTPTransport {
    public let base: any HTTPTransport
    public let gate: OriginGate

    public init(_ base: any HTTPTransport, gate: OriginGate) {
        self.base = base
        self.gate = gate
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let context = PacingContext.current
        try await gate.admit(request.url, maximumWait: context.maximumWait, maximumWaitName: context.maximumWaitName, report: context.report)
        do {
            let response = try await base.send(request)
            gate.finish(request.url, response: response)
            return response
        } catch {
            gate.finish(request.url, response: nil)
            throw error
        }
    }
}

/// What the requests of a task (and the tasks it starts) may wait at the gate, and who hears
/// about each wait: a sync sets it around its pages, `fresh get` around its request. A task
/// value, so the transport, far below, reads it without every layer between passing it on.
public struct PacingContext: Sendable {
    /// The longest a request waits for a hold before giving up (``PacingError``).
    public var maximumWait: Duration
    /// What the user knows ``maximumWait`` as.
    public var maximumWaitName: String
    /// Hears each wait before it is waited.
    public var report: @Sendable (OriginGate.Wait) -> Void

    public init(maximumWait: Duration = .seconds(120), maximumWaitName: String = "--max-wait",
                report: @escaping @Sendable (OriginGate.Wait) -> Void = { _ in }) {
        self.maximumWait = maximumWait
        self.maximumWaitName = maximumWaitName
        self.report = report
    }

    /// The context of the current task.
    @TaskLocal public static var current = PacingContext()
}
