import Foundation
import MirrorStore
import NamedSources
import Storage
import SyncEngine
import SyncOrchestration
import Testing
@testable import FreshReader

/// `fresh-reader --collection NAME` reads a name as `fresh sync NAME` does (``SyncTarget``).
@Suite("Reader: the collection a name means")
struct ReaderCommandTests {
    @Test func aNameIsASourceFirstThenACollectionSyncedBefore() async throws {
        let directory = NSTemporaryDirectory() + "fresh-reader-names-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteMirror(path: StorageLocation(directory: directory).itemDatabasePath)
        let posts = try store.createCollection(preferredName: "posts", url: "http://127.0.0.1:1/posts")
        let sources = [Source(name: "github", url: "http://127.0.0.1:1/repos")]

        // A source never synced: its collection is made, named after it, to be refreshed.
        let github = try #require(try await ReaderCommand.collection(url: nil, name: "github", sources: sources, in: store))
        #expect(github.name == "github" && github.url == "http://127.0.0.1:1/repos")
        // Opened again, the same one; a collection synced before, by its name in another case.
        #expect(try await ReaderCommand.collection(url: nil, name: "github", sources: sources, in: store)?.id == github.id)
        #expect(try await ReaderCommand.collection(url: nil, name: "Posts", sources: sources, in: store)?.id == posts.id)
        await #expect(throws: UnknownSyncTarget.self) {
            _ = try await ReaderCommand.collection(url: nil, name: "nothing", sources: sources, in: store)
        }
    }

    /// A source's collection is found or made as `fresh sync NAME` does: its URL kept without
    /// credentials, and a name that mirrors another URL refused.
    @Test func aSourcesCollectionIsMadeAsASyncMakesIt() async throws {
        let directory = NSTemporaryDirectory() + "fresh-reader-names-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteMirror(path: StorageLocation(directory: directory).itemDatabasePath)
        _ = try store.createCollection(preferredName: "docs", url: "http://127.0.0.1:1/docs")
        let sources = [Source(name: "private", url: "http://kim:secret@127.0.0.1:1/repos"), Source(name: "docs", url: "http://127.0.0.1:1/other")]
        let made = try #require(try await ReaderCommand.collection(url: nil, name: "private", sources: sources, in: store))
        #expect(made.url == "http://127.0.0.1:1/repos")
        await #expect(throws: SyncError.self) { _ = try await ReaderCommand.collection(url: nil, name: "docs", sources: sources, in: store) }
    }
}
