import Foundation
import HTTPFields
import HTTPTypes

/// What every item route does whatever the item's schema: read one item, write one under the
/// `If-Match` / `If-Unmodified-Since` preconditions, create one, delete one, and answer a write
/// with the item as a GET now returns it. ``PostsRoutes`` (posts against the post schema) and
/// ``CollectionRoutes`` (any JSON object) supply only how a body becomes an item.
struct ItemResponder: Sendable {
    let store: MockStore
    let validators: Validators
    /// `--require-if-match`: writes without `If-Match` get 428.
    let requireIfMatch: Bool

    // MARK: Reading

    /// `GET /NAME/{id}`.
    func read(_ request: APIRequest, in name: String) throws(APIError) -> Reply {
        try store.reply(to: request.headers, of: .collection(name), key: "/\(name)/\(request.pathID ?? "")", validators: validators) {
            data throws(APIError) in
            Self.content(of: try Self.locate(request, in: name, of: data).item)
        }
    }

    // MARK: Writing

    /// `PUT` / `PATCH /NAME/{id}`: `change` makes the new item from the current one, its
    /// collection and the time of the write; an item that comes out unchanged keeps its validators.
    func update(
        _ request: APIRequest, in name: String,
        change: (MockItem, ItemCollection, Date) throws(APIError) -> MockItem
    ) throws(APIError) -> Reply {
        let (item, condition) = try store.write(.collection(name)) { (data: inout MockData, now: Date) throws(APIError) in
            let (collection, current) = try Self.locate(request, in: name, of: data)
            let condition = try checkPreconditions(request, current: current)
            var updated = try change(current, collection, now)
            updated.key = current.key
            guard updated.json != current.json else { return (current, condition) }
            _ = data.collections[name]?.replace(updated)
            return (updated, condition)
        }
        return stored(item, status: .ok, condition: condition)
    }

    /// `DELETE /NAME/{id}`; 204.
    func delete(_ request: APIRequest, in name: String) throws(APIError) -> Reply {
        let condition = try store.write(.collection(name)) { (data: inout MockData, _: Date) throws(APIError) in
            let current = try Self.locate(request, in: name, of: data).item
            let condition = try checkPreconditions(request, current: current)
            _ = data.collections[name]?.remove(current.key)
            return condition
        }
        return Reply(status: .noContent, condition: condition)
    }

    /// `POST /NAME`: `make` builds the new item in the collection (drawing a key when it needs
    /// one); 201 with `Location`, `ETag` and the item.
    func create(
        in name: String,
        make: (inout ItemCollection, inout SplitMix64, Date) throws(APIError) -> MockItem
    ) throws(APIError) -> Reply {
        let item = try store.write(.collection(name)) { (data: inout MockData, now: Date) throws(APIError) in
            var random = data.keyRandom
            defer { data.keyRandom = random }
            let item = try data.withCollection(name) { (collection: inout ItemCollection) throws(APIError) in
                let item = try make(&collection, &random, now)
                guard collection.insert(item) else {
                    throw .conflict("\(name) already has an item with \(collection.keyField) \(item.key.text)")
                }
                return item
            }
            guard let item else { throw .notFound("no collection \(name)") }
            return item
        }
        var reply = stored(item, status: .created)
        reply.headers[.location] = "/\(name)/\(item.key.pathSegment)"
        return reply
    }

    // MARK: Helpers

    /// The representation content of `item`: its bytes, changed exactly at its `updatedAt`.
    static func content(of item: MockItem) -> RepresentationContent {
        RepresentationContent(body: item.json, changed: .exactly(item.updatedAt))
    }

    /// The collection `name` and its item that the request's `{id}` names (404 when there is none).
    private static func locate(
        _ request: APIRequest, in name: String, of data: MockData
    ) throws(APIError) -> (collection: ItemCollection, item: MockItem) {
        guard let collection = data.collections[name] else { throw .notFound("no collection \(name)") }
        let key = try request.itemKey(in: collection)
        guard let item = collection.item(key) else { throw .notFound("no item of \(name) with \(collection.keyField) \(key.text)") }
        return (collection, item)
    }

    /// Checks the write preconditions against the item's current representation (412, 428).
    private func checkPreconditions(_ request: APIRequest, current: MockItem) throws(APIError) -> ConditionalOutcome? {
        try validators.checkWritePreconditions(
            request.headers, current: Representation(exactly: Self.content(of: current)), required: requireIfMatch)
    }

    /// The reply to a successful write: the item as `GET /NAME/{id}` now returns it, with its `ETag`.
    private func stored(_ item: MockItem, status: HTTPResponse.Status, condition: ConditionalOutcome? = nil) -> Reply {
        let representation = Representation(exactly: Self.content(of: item))
        var fields = HTTPFields()
        fields[.contentType] = Reply.jsonContentType
        fields[.eTag] = validators.sentTag(for: representation.entityTag).description
        fields[.lastModified] = representation.lastModifiedHeader
        return Reply(status: status, headers: fields, body: representation.identity.body, condition: condition)
    }
}
