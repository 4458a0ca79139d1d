import Foundation
import HTTPTypes
import NIOCore

/// `/_admin/…`: look at the server (stats, journal, faults) and steer it (faults, reset, tick).
/// Answers are `Cache-Control: no-store` and never faulted.
struct AdminRoutes: Sendable {
    /// Most journal entries one request may ask for.
    static let maxJournalLimit = 10_000
    /// Most simulated changes one tick may ask for.
    static let maxTickSteps = 1_000

    let store: MockStore
    let log: RequestLog
    let faults: FaultInjector
    /// The fault settings `/_admin/reset` restores.
    let initialFaults: FaultInjector.Settings
    /// The routes a fault rule may name.
    let routes: RouteTable
    /// `--mirror`: what its pages could not answer.
    let misses: MissLog?
    /// Whatever else `/_admin/reset` restores (the rate limiter's window).
    let reset: @Sendable () -> Void

    /// Dispatches a request already matched to an admin route.
    func respond(to request: APIRequest) throws(APIError) -> Reply {
        var reply: Reply
        switch (request.route, request.method) {
        case (.stats, _):
            reply = Reply(json: log.statistics)
        case (.journal, _):
            let limit = try request.query.integer("limit", default: 50, in: 1...Self.maxJournalLimit)
            reply = Reply(json: log.journal(last: limit))
        case (.faults, .put):
            let update = try JSONBody.decode(FaultsUpdate.self, from: request.body)
            for (index, rule) in update.rules.enumerated() {
                if let problem = routes.problem(withFaultRoute: rule.route) {
                    throw .invalidField(name: "rules.\(index).route", message: problem)
                }
            }
            faults.replace(with: .init(seed: update.seed ?? initialFaults.seed, rules: update.rules))
            reply = Reply(json: faults.settings)
        case (.faults, .delete):
            faults.replace(with: .init(seed: faults.settings.seed, rules: []))
            reply = Reply(json: faults.settings)
        case (.faults, _):
            reply = Reply(json: faults.settings)
        case (.misses, _):
            // One URL a line, as `fresh sync --input-file` reads them.
            let text = (misses?.urls ?? []).map { $0 + "\n" }.joined()
            reply = Reply(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: ByteBuffer(string: text))
        case (.reset, _):
            store.reset()
            misses?.clear()
            faults.replace(with: initialFaults)
            log.clear()
            reset()
            reply = Reply(json: ["status": "reset"])
        default:
            let steps = try request.query.integer("n", default: 1, in: 1...Self.maxTickSteps)
            let summary = try store.write(.collection(ItemCollection.postsName)) { (data: inout MockData, now: Date) throws(APIError) in
                TickSimulator.run(steps: steps, on: &data, at: now)
            }
            reply = Reply(json: summary)
        }
        reply.headers[.cacheControl] = CacheDirectives.adminHeaderValue
        return reply
    }

    /// The body of `PUT /_admin/faults`.
    private struct FaultsUpdate: Decodable {
        /// Restarts the seeded draws from this seed (the server's `--seed` when absent).
        var seed: UInt64?
        var rules: [FaultRule]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case seed, rules
        }

        /// As the document says: `seed` absent, or an unsigned 64-bit integer (not `null`); no
        /// other member.
        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownMembers(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            rules = try container.decode([FaultRule].self, forKey: .rules)
            guard container.contains(.seed) else { return }
            guard !(try container.decodeNil(forKey: .seed)), let seed = try? container.decode(UInt64.self, forKey: .seed) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.seed], debugDescription: "must be a whole number 0…\(UInt64.max)"))
            }
            self.seed = seed
        }
    }
}
