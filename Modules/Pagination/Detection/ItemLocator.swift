import JSON

/// Finds a page's array of items, and each item's key.
public enum ItemLocator {
    /// Envelope members that usually hold the items, most likely first.
    static let itemArrayNames = ["data", "results", "items", "records", "entries", "values", "objects", "rows", "hits",
                                 "list", "elements", "content", "docs", "nodes", "collection", "resources", "members"]

    /// Members that usually key an item, in the order they are tried.
    public static let keyCandidates = ["id", "_id", "uuid", "guid", "key", "slug", "login", "username", "handle", "email", "code", "name"]

    /// The array at `path`, or an error saying what is there instead.
    static func array(at path: JSONPath, in document: JSONDocument) throws(PageError) -> JSONValue {
        guard let value = document.value(at: path) else {
            throw .noItems(path: path, found: "absent", members: document.root.members.map(\.name))
        }
        guard value.kind == .array else {
            throw .noItems(path: path, found: value.kind.phrase, members: value.members.map(\.name))
        }
        return value
    }

    /// Where the items of a first page are: the body when it is an array, else the array of
    /// objects in the envelope, one or two levels down (`data`, `results`, `hits.hits`,
    /// `_embedded.posts`, …), preferring the usual names, then the longest.
    static func locate(in document: JSONDocument) throws(PageError) -> JSONPath {
        let root = document.root
        if root.kind == .array { return .root }
        guard root.kind == .object else { throw .noItems(path: .root, found: root.kind.phrase, members: []) }
        var candidates: [(path: JSONPath, value: JSONValue)] = []
        for (name, value) in root.members {
            if value.kind == .array { candidates.append((JSONPath([name]), value)) }
            if value.kind == .object {
                for (inner, innerValue) in value.members where innerValue.kind == .array {
                    candidates.append((JSONPath([name, inner]), innerValue))
                }
            }
        }
        let ofObjects = candidates.filter { candidate in candidate.value.elements.allSatisfy { $0.kind == .object } }
        func rank(_ path: JSONPath) -> Int { itemArrayNames.firstIndex(of: path.components.last ?? "") ?? itemArrayNames.count }
        let best = ofObjects.min { left, right in
            let (leftEmpty, rightEmpty) = (left.value.count == 0, right.value.count == 0)
            if leftEmpty != rightEmpty { return rightEmpty } // a filled array beats an empty one
            if rank(left.path) != rank(right.path) { return rank(left.path) < rank(right.path) }
            if left.value.count != right.value.count { return left.value.count > right.value.count }
            return left.path.components.count < right.path.components.count
        }
        guard let best else {
            throw .noItems(path: .root, found: "an object without an array of objects", members: root.members.map(\.name))
        }
        return best.path
    }

    /// The key member of a first page's items: the first candidate that keys every item
    /// uniquely (`id` for an empty page).
    static func key(for items: JSONValue) throws(PageError) -> JSONPath {
        let elements = items.elements
        for name in keyCandidates {
            let path = JSONPath([name])
            let keys = elements.compactMap { $0.value(at: path).flatMap(ItemKey.init) }
            if keys.count == elements.count && Set(keys).count == keys.count { return path }
        }
        let found = elements.first.map { "members: " + $0.members.map(\.name).prefix(12).joined(separator: ", ") } ?? "absent"
        throw .itemWithoutKey(index: 0, key: JSONPath(["id"]), found: found)
    }

    /// The key of every item, checking that each item is an object with a usable, unique key.
    static func keys(of items: JSONValue, key: JSONPath) throws(PageError) -> [ItemKey] {
        do throws(ElementKeyProblem) {
            return try items.elementKeys(at: key)
        } catch {
            switch error {
            case .notAnObject(let index, let kind): throw .itemNotObject(index: index, kind: kind)
            case .noKey(let index, let found): throw .itemWithoutKey(index: index, key: key, found: found)
            case .duplicate(let itemKey, let first, let second): throw .duplicateKey(itemKey, firstIndex: first, secondIndex: second)
            }
        }
    }
}
