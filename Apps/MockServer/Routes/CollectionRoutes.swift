import JSON
import Foundation
import HTTPTypes

/// The writes and reads of `/NAME` (POST) and `/NAME/{id}` for collections of any JSON objects
/// (the seeded `users`, every collection of a `--data` file), as json-server does them: the
/// body is any JSON object; the key field is the server's (taken from the path, or drawn for a
/// created item that has none). (`GET /NAME` is a page: ``PageRoutes``.)
struct CollectionRoutes: Sendable {
    let items: ItemResponder

    /// The media type that makes a PATCH an RFC 7396 JSON merge patch (`null` removes a member,
    /// objects merge recursively); any other PATCH replaces the top-level members it names.
    static let mergePatchType = "application/merge-patch+json"

    /// Dispatches a request already matched to `/NAME` (POST) or `/NAME/{id}`.
    func respond(to request: APIRequest, collection name: String) throws(APIError) -> Reply {
        switch request.method {
        case .post:
            let body = try Self.object(from: request)
            return try items.create(in: name) { collection, random, now throws(APIError) in
                var members = body
                let key: ItemKey
                if let given = members[collection.keyField] {
                    guard let givenKey = given.itemKey, givenKey.kind == collection.keyKind, givenKey != .string("") else {
                        let kind = collection.keyKind == .integer ? "an integer" : "a non-empty string"
                        throw .invalidField(name: collection.keyField, message: "must be \(kind)")
                    }
                    key = givenKey
                } else {
                    key = collection.makeKey(using: &random)
                }
                members[collection.keyField] = key.json
                return MockItem(key: key, value: JSONTree.object(members), updatedAt: now)
            }
        case .get, .head:
            return try items.read(request, in: name)
        case .delete:
            return try items.delete(request, in: name)
        case .put:
            let body = try Self.object(from: request)
            return try items.update(request, in: name) { current, collection, now in
                Self.item(current, members: body, keyField: collection.keyField, at: now)
            }
        default:
            let patch = try Self.object(from: request)
            let isMergePatch = request.headers[.contentType]?.lowercased().hasPrefix(Self.mergePatchType) == true
            return try items.update(request, in: name) { current, collection, now in
                var members = current.members
                for (name, value) in patch {
                    members[name] = isMergePatch ? Self.mergePatch(members[name], with: value) : value
                }
                return Self.item(current, members: members, keyField: collection.keyField, at: now)
            }
        }
    }

    // MARK: Helpers

    /// The body as a JSON object's members (400 for any other JSON, or none).
    private static func object(from request: APIRequest) throws(APIError) -> [String: JSONTree] {
        let value = try JSONBody.decode(JSONTree.self, from: request.body)
        guard let members = value.objectMembers else {
            throw .invalidField(name: "(body)", message: "must be a JSON object, not \(value.kindDescription)")
        }
        return members
    }

    /// `current` with `members`, its key field set back to its key (a body cannot move an
    /// item), stamped `now`.
    private static func item(_ current: MockItem, members: [String: JSONTree], keyField: String, at now: Date) -> MockItem {
        var members = members
        members[keyField] = current.key.json
        return MockItem(key: current.key, value: JSONTree.object(members), updatedAt: now)
    }

    /// RFC 7396: `patch` applied to `target`; `nil` removes the member.
    private static func mergePatch(_ target: JSONTree?, with patch: JSONTree) -> JSONTree? {
        guard case .object(let patchMembers) = patch else { return patch == .null ? nil : patch }
        var members = target?.objectMembers ?? [:]
        for (name, value) in patchMembers {
            members[name] = mergePatch(members[name], with: value)
        }
        return .object(members)
    }
}
