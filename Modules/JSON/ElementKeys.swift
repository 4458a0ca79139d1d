/// Why the elements of an array cannot key a collection's items.
public enum ElementKeyProblem: Error, Sendable, Equatable {
    /// Element `index` (from 0) is not an object.
    case notAnObject(index: Int, kind: JSONValue.Kind)
    /// Element `index` has no usable key at the path: what stands there instead.
    case noKey(index: Int, found: String)
    /// Two elements share a key.
    case duplicate(ItemKey, firstIndex: Int, secondIndex: Int)
}

extension JSONValue {
    /// The key at `path` of every element of this array, in order, checking that each element
    /// is an object with a usable key (see ``ItemKey``) that no other element has.
    public func elementKeys(at path: JSONPath) throws(ElementKeyProblem) -> [ItemKey] {
        let names = path.components.map { Array($0.utf8) }
        return try document.withNodeView { view in
            Result { () throws(ElementKeyProblem) in try Self.keys(ofArray: index, names: names, in: view) }
        }.get()
    }

    private static func keys(ofArray array: Int, names: [[UInt8]], in view: JSONNodeView) throws(ElementKeyProblem) -> [ItemKey] {
        var keys: [ItemKey] = []
        keys.reserveCapacity(view.nodes[array].childCount)
        var seen = [ItemKey: Int](minimumCapacity: view.nodes[array].childCount)
        var element = view.nodes[array].kind == .array ? view.nodes[array].firstChild : -1
        var index = 0
        while element >= 0 {
            guard view.nodes[element].kind == .object else { throw .notAnObject(index: index, kind: view.nodes[element].kind) }
            var value = element
            for name in names where value >= 0 {
                value = name.withUnsafeBufferPointer { view.member(of: value, named: $0) }
            }
            guard value >= 0 else { throw .noKey(index: index, found: "absent") }
            guard let key = ItemKey(node: value, in: view) else {
                let node = view.nodes[value]
                let found = node.kind == .string ? "an empty string"
                    : node.kind == .number ? "the number \(String(decoding: view.text(node.start, node.end), as: UTF8.self))" : node.kind.phrase
                throw .noKey(index: index, found: found)
            }
            if let first = seen.updateValue(index, forKey: key) { throw .duplicate(key, firstIndex: first, secondIndex: index) }
            keys.append(key)
            element = view.nodes[element].nextSibling
            index += 1
        }
        return keys
    }
}
