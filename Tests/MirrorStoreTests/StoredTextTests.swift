import HTTPTypes
import JSON
import MirrorStore
import Pagination
import Testing

@Suite("Stored text: a collection's plan and header fields in a store's columns")
struct StoredTextTests {
    @Test func aPlanAndHeaderFieldsReadBackAsWritten() {
        let plan = PaginationPlan(style: .cursor(path: JSONPath(["next_cursor"]), parameter: "cursor", hasMore: nil),
                                  items: JSONPath(["data"]), key: JSONPath(["id"]), sizeParameter: "limit")
        #expect(StoredText.plan(from: StoredText.text(of: plan)) == plan)
        let fields: HTTPFields = [.accept: "application/vnd.github+json", HTTPField.Name("X-Api-Version")!: "2"]
        #expect(StoredText.text(of: fields) == #"[["Accept","application\/vnd.github+json"],["X-Api-Version","2"]]"#)
        #expect(StoredText.headerFields(from: StoredText.text(of: fields)) == fields)
    }

    /// Nothing stored, or text another version wrote: no plan (the next sync detects it again),
    /// no fields; never a failure to read the collection.
    @Test func whatCannotBeReadIsNone() {
        #expect(StoredText.plan(from: nil) == nil)
        #expect(StoredText.plan(from: #"{"style":"link"}"#) == nil)
        #expect(StoredText.text(of: HTTPFields()) == nil)
        #expect(StoredText.headerFields(from: "not json").isEmpty)
        #expect(StoredText.headerFields(from: #"[["Accept"]]"#).isEmpty)
    }
}
