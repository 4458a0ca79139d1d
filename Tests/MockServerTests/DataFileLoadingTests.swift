import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import MockServer

@Suite("--data FILE.json: loading")
struct DataFileLoadingTests {
    private static func load(_ json: String, keyField: String = "id") throws(DataFileError) -> [ItemCollection] {
        try DataFile.collections(in: Data(json.utf8), path: "db.json", keyField: keyField, modified: SeedData.epoch)
    }

    @Test(arguments: [
        ("", "db.json is not JSON: the file is empty"),
        ("{\"a\": [}", "db.json is not JSON: "),
        ("[1, 2]", "db.json: the top level is an array, not an object of arrays"),
        (#"{"posts": {"id": 1}}"#, #"db.json: "posts" is an object, not an array of items"#),
        (#"{"posts": [{"id": 1}, 5]}"#, "db.json: posts[1] is a number, not an object"),
        (#"{"posts": [{"id": 1}, {"title": "x"}]}"#, #"db.json: posts[1] has no "id" (choose the key field with --key)"#),
        (#"{"posts": [{"id": 1.5}]}"#, "db.json: posts[0].id is a number, not an integer or a string"),
        (#"{"posts": [{"id": true}]}"#, "db.json: posts[0].id is a boolean, not an integer or a string"),
        (#"{"posts": [{"id": 1}, {"id": "b"}]}"#, "db.json: posts[1].id is a string, but the ones before it are integers"),
        (#"{"posts": [{"id": 1}, {"id": 2}, {"id": 1}]}"#, #"db.json: posts[2] has the same "id" as posts[0]: 1"#),
        (#"{"tags": [{"id": "a"}, {"id": "a"}]}"#, #"db.json: tags[1] has the same "id" as tags[0]: a"#),
        (#"{"tags": [{"id": ""}]}"#, "db.json: tags[0].id is an empty string (a key is part of a URL path)"),
        (#"{"styles": []}"#, #"db.json: "styles" cannot be a collection name: /styles is one of the server's own routes"#),
        (#"{"my posts": []}"#, #"db.json: "my posts" cannot be a collection name"#),
    ])
    func badFilesGetOneLineNamingTheFileAndTheProblem(json: String, message: String) {
        #expect(throws: DataFileError.self) { try Self.load(json) }
        do {
            _ = try Self.load(json)
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
            #expect(!error.description.contains("\n"))
            #expect(!error.isUnreadable)
        }
    }

    @Test func notJSONSaysWhereTheParserStopped() {
        do {
            _ = try Self.load("{\n  \"posts\": [\n    {\"id\": 1 \"title\": 2}\n  ]\n}")
            Issue.record("loaded invalid JSON")
        } catch {
            #expect(error.description.contains("line 3"), "\(error.description)")
        }
    }

    @Test func missingFilesAndDirectoriesAreUnreadable() throws {
        for path in ["/nonexistent/db.json", FileManager.default.temporaryDirectory.path] {
            #expect(throws: DataFileError.self) { try DataFile.load(path: path, keyField: "id") }
            do { _ = try DataFile.load(path: path, keyField: "id") } catch {
                #expect(error.isUnreadable && error.description.hasPrefix("cannot read \(path): "), "\(error.description)")
            }
        }
    }

    @Test func keysAreIntegersOrStringsInKeyOrderWithAConfigurableKeyField() throws {
        let collections = try Self.load(#"{"b": [{"slug": "z"}, {"slug": "a"}], "a": [{"slug": 10}, {"slug": 9}], "e": []}"#, keyField: "slug")
        #expect(collections.map(\.name) == ["a", "b", "e"])
        #expect(collections[0].keyKind == .integer && collections[0].items.all.map(\.key) == [.integer(9), .integer(10)])
        #expect(collections[1].keyKind == .string && collections[1].items.all.map(\.key) == [.string("a"), .string("z")])
        #expect(collections[2].keyKind == .integer && collections[2].count == 0)
    }

    @Test func theSampleFileInDocsLoads() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/examples/db.json").path
        let collections = try DataFile.load(path: path, keyField: "id")
        #expect(collections.map(\.name) == ["books", "tags"])
        #expect(collections.map(\.keyKind) == [.integer, .string])
    }
}
