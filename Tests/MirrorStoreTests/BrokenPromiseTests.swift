import MirrorStore
import StoreTestSupport
import Testing

/// A mirror whose rows contradict each other is not called sound: `fresh check` (the store's
/// `problems()`) says what it found, in the same words from either store.
@Suite("Mirror store: the check finds rows that contradict each other, in SQLite and PostgreSQL")
struct BrokenPromiseTests {
    @Test(arguments: StoreKind.allCases)
    func itemsOnNoPageAndPagesShortOfTheirItemsAreFound(_ kind: StoreKind) async throws {
        let mirror = try await Self.afterACompletePass(kind)
        #expect(try await mirror.store.problems().isEmpty)

        // Items past the last page are what a pass that ended unsettled keeps: no broken promise.
        try mirror.execute(sqlite: "DELETE FROM page WHERE pageIndex = 2", postgresql: "DELETE FROM page WHERE page_index = 2")
        #expect(try await mirror.store.problems().isEmpty)

        try mirror.execute(sqlite: "UPDATE page SET itemCount = 5 WHERE pageIndex = 0; DELETE FROM page WHERE pageIndex = 1",
                           postgresql: "UPDATE page SET item_count = 5 WHERE page_index = 0; DELETE FROM page WHERE page_index = 1")
        let pass = try #require(try await mirror.store.collection(id: mirror.collection.id)).pass
        try await mirror.write(2, pass: pass, [(4, "d")], next: nil)   // the last page back: item 3 is before it
        #expect(try await mirror.store.problems() == [
            BrokenPromise.itemsOnNoPage(collection: "posts", count: 1), BrokenPromise.shortPage(collection: "posts", pageIndex: 0),
        ])
        #expect(BrokenPromise.shortPage(collection: "posts", pageIndex: 0) == "collection posts: page 1 holds fewer items than it listed")
    }

    @Test(arguments: StoreKind.allCases)
    func aKeptItemCountThatIsNotTheItemsStoredIsFound(_ kind: StoreKind) async throws {
        let mirror = try await Self.afterACompletePass(kind)
        #expect(try await mirror.store.itemCount(in: mirror.collection.id) == 4)

        try mirror.execute(sqlite: "UPDATE itemCount SET count = 7", postgresql: "UPDATE item_count SET count = 7")
        #expect(try await mirror.store.problems() == [BrokenPromise.keptCount(collection: "posts", kept: 7, stored: 4)])

        // A count kept for an earlier change number no longer holds: nothing is promised by it.
        try mirror.execute(sqlite: "UPDATE collection SET changeSequence = changeSequence + 1",
                           postgresql: "UPDATE collection SET change_sequence = change_sequence + 1")
        #expect(try await mirror.store.problems().isEmpty)
    }

    /// A store whose one collection's last pass, complete, stored items 1 and 2 on page 1, 3 on
    /// page 2 and 4 on page 3.
    private static func afterACompletePass(_ kind: StoreKind) async throws -> StoreUnderTest {
        let mirror = try await StoreUnderTest(kind)
        let pass = try await mirror.startPass().pass
        try await mirror.write(0, pass: pass, [(1, "a"), (2, "b")])
        try await mirror.write(1, pass: pass, [(3, "c")])
        try await mirror.write(2, pass: pass, [(4, "d")], next: nil)
        _ = try await mirror.finish(pass, lastPage: 2)
        return mirror
    }
}
