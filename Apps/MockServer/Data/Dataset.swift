// MARK: - Dataset

/// The independently changing parts of ``MockData``; a write to one drops only its cached
/// representations.
enum Dataset: Hashable, Sendable, CaseIterable {
    case posts, articles, feed, exercises, documentation
}
