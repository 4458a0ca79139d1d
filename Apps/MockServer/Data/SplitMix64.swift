/// A small, fast, seeded pseudo-random generator (Steele, Lea & Flood's SplitMix64).
///
/// Every piece of generated data and every injected fault draws from one of these, so the same
/// `--seed` gives byte-identical responses on every machine and every run.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose whole output sequence is fixed by `seed`.
    init(seed: UInt64) {
        self.state = seed
    }

    /// The next 64 pseudo-random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    // MARK: Helpers with a stable algorithm

    /// A value in `0..<bound` (multiply-shift; stable across Swift versions, unlike `random(in:)`).
    mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A value in `0.0..<1.0` with 53 bits of precision.
    mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// One element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[next(below: elements.count)]
    }
}
