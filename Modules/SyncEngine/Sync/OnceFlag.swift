import Synchronization

/// A flag that goes from unset to set once, shared by the tasks of a pass.
final class OnceFlag: Sendable {
    private let value = Atomic(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    /// Sets the flag; whether this call is the one that set it.
    func set() -> Bool { value.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged }
}
