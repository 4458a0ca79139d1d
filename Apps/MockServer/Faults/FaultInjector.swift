import Synchronization

/// Applies the active ``FaultRule``s to requests, drawing from a seeded generator so the same
/// request sequence meets the same faults on every run.
final class FaultInjector: Sendable {
    /// The rules as `GET /_admin/faults` shows them and `PUT` replaces them.
    struct Settings: Codable, Sendable, Equatable {
        /// Seed of the draws for `rate` and `jitter_ms`; replacing the settings restarts the sequence.
        var seed: UInt64
        var rules: [FaultRule]
    }

    private struct State {
        var settings: Settings
        var random: SplitMix64
        /// Matching requests seen per rule, for `first` and `after`.
        var matches: [Int]

        init(settings: Settings) {
            self.settings = settings
            self.random = SplitMix64(seed: settings.seed)
            self.matches = Array(repeating: 0, count: settings.rules.count)
        }
    }

    private let state: Mutex<State>
    /// Whether any rule is set: most runs have none, and then a request takes no lock here.
    private let hasRules: Atomic<Bool>

    init(settings: Settings) {
        self.state = Mutex(State(settings: settings))
        self.hasRules = Atomic(!settings.rules.isEmpty)
    }

    /// The active rules and seed.
    var settings: Settings {
        state.withLock { $0.settings }
    }

    /// Replaces the rules and restarts the seeded sequence and the `first` and `after` counters.
    func replace(with settings: Settings) {
        state.withLock { state in
            state = State(settings: settings)
            hasRules.store(!settings.rules.isEmpty, ordering: .relaxed)
        }
    }

    /// Decides the faults of one request to the route `template`: latencies add up, the first failing rule wins.
    func decide(for template: @autoclosure () -> String) -> FaultDecision? {
        guard hasRules.load(ordering: .relaxed) else { return nil }
        let template = template()
        return state.withLock { state in
            var decision = FaultDecision()
            var matched = false
            for (index, rule) in state.settings.rules.enumerated() where rule.route == nil || rule.route == template {
                state.matches[index] += 1
                let passed = rule.after ?? 0
                if state.matches[index] <= passed { continue }
                if let first = rule.first, state.matches[index] > passed + first { continue }
                matched = true
                let jitter = rule.jitterMilliseconds > 0 ? state.random.next(below: rule.jitterMilliseconds + 1) : 0
                decision.delayMilliseconds += rule.latencyMilliseconds + jitter
                guard decision.failure == nil, let failure = rule.failure else { continue }
                if rule.rate >= 1 || state.random.nextUnitDouble() < rule.rate {
                    decision.failure = failure
                    decision.status = rule.status
                    decision.retryAfter = rule.retryAfter ?? ([429, 503].contains(rule.status) ? 1 : nil)
                }
            }
            return matched ? decision : nil
        }
    }
}
