/// What a storage that keeps responses without their bodies keeps of a body instead. A sync's
/// pages are stored this way (their items are in the mirror already), so a fresh hit or a 304
/// still says which content it stands for and how many bytes it saved.
public struct OmittedBody: Sendable, Equatable {
    /// The body's length in bytes.
    public var length: Int
    /// The body's FNV-1a digest (64 bits, hex), when there is no `ETag`.
    public var digest: String?

    public init(length: Int, digest: String?) {
        self.length = length
        self.digest = digest
    }
}
