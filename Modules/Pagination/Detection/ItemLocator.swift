import HTTPFields
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

    /// Whether `document` is one object rather than a page of items (no array ``locate(in:)`` would take).
    public static func isSingleObject(_ document: JSONDocument) -> Bool {
        document.root.kind == .object && (try? locate(in: document)) == nil
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
        // Arrays of objects first; else scalars under a name that holds items (`{"data": [1, 2], …}`).
        let ofObjects = candidates.filter { candidate in candidate.value.elements.allSatisfy { $0.kind == .object } }
        let usable = ofObjects.isEmpty ? candidates.filter { itemArrayNames.contains($0.path.components.last ?? "") } : ofObjects
        func rank(_ path: JSONPath) -> Int { itemArrayNames.firstIndex(of: path.components.last ?? "") ?? itemArrayNames.count }
        let best = usable.min { left, right in
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
    /// uniquely (`id` for an empty page); ``JSONPath/contentHash`` when none does (scalars,
    /// objects without a key member).
    static func key(for items: JSONValue) -> JSONPath {
        let elements = items.elements
        for name in keyCandidates {
            let path = JSONPath([name])
            let keys = elements.compactMap { $0.value(at: path).flatMap(ItemKey.init) }
            if keys.count == elements.count && Set(keys).count == keys.count { return path }
        }
        return .contentHash
    }

    /// The key of every item, checking each is an object with a usable, unique key (or hashing each item).
    static func keys(of items: JSONValue, key: JSONPath) throws(PageError) -> [ItemKey] {
        if key == .contentHash { return contentKeys(of: items) }
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

    /// Each item's content hash (FNV-1a of its compact JSON, `#` and 16 hex digits); the same
    /// content twice on a page gets `~2`, `~3`… after it, so equal scalars stay distinct items.
    private static func contentKeys(of items: JSONValue) -> [ItemKey] {
        var seen: [String: Int] = [:]
        return items.elementsCompactBytes.map { bytes in
            let hash = "#" + FNV1a64.hex(bytes)
            seen[hash, default: 0] += 1
            return .string(seen[hash]! == 1 ? hash : "\(hash)~\(seen[hash]!)")
        }
    }
}

extension JSONPath {
    /// The key of items that have no key member: a hash of each item's content.
    public static let contentHash = JSONPath(["#content"])
}
