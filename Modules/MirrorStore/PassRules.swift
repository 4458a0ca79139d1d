/// The rules of a pass that hold whatever keeps the mirror: each store supplies its storage
/// (statements, a transaction) and leaves these decisions here.

extension CollectionRecord {
    /// Whether a sync goes on with the collection's last pass rather than starting one (where it
    /// goes on is ``PassPosition/Resuming``'s to say).
    public func passMayResume(restart: Bool) -> Bool {
        !restart && !passComplete && pass > 0 && plan != nil
    }
}

extension PassPosition {
    /// A pass that starts at the first page.
    public static func starting(_ pass: Int) -> PassPosition {
        PassPosition(pass: pass, isResumed: false, nextPageIndex: 0, nextURL: nil, fetchedURLDigests: [])
    }
}

extension DuplicateKey {
    /// A key another page of the same pass listed already, found while a batch of pages was written
    /// (nothing written yet): the store rolls the batch back, writes the pages before that page again
    /// on their own (``pages(before:)``), and throws the key with what they changed (``with(written:)``).
    public init(key: String, pageIndex: Int, foundOnPage: Int) {
        self.init(key: key, pageIndex: pageIndex, foundOnPage: foundOnPage, written: [])
    }

    /// The pages of `batch` before the one that listed the key again.
    public func pages(before batch: [PageContent]) -> [PageContent] {
        Array(batch.prefix { $0.index != foundOnPage })
    }

    /// The key, with what the pages written before it changed.
    public func with(written: [PageWrite]) -> DuplicateKey {
        DuplicateKey(key: key, pageIndex: pageIndex, foundOnPage: foundOnPage, written: written)
    }
}
