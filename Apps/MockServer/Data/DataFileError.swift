/// Why a `--data` file cannot be served: each case names the file and the problem in one line.
public enum DataFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be read (missing, a directory, no permission).
    case unreadable(path: String, reason: String)
    /// The bytes are not JSON.
    case notJSON(path: String, detail: String)
    /// The JSON is not an object of arrays (its top level, described).
    case notAnObject(path: String, found: String)
    /// A collection's value is not an array.
    case notAnArray(path: String, collection: String, found: String)
    /// A collection's name cannot be a URL path segment, or is one of the server's own routes.
    case unusableName(path: String, collection: String, reason: String)
    /// An item is not a JSON object.
    case itemNotAnObject(path: String, collection: String, index: Int, found: String)
    /// An item has no key field.
    case missingKey(path: String, collection: String, index: Int, keyField: String)
    /// An item's key is neither an integer nor a string, or not of the kind of the others.
    case invalidKey(path: String, collection: String, index: Int, keyField: String, problem: String)
    /// Two items share a key.
    case duplicateKey(path: String, collection: String, index: Int, firstIndex: Int, keyField: String, key: String)

    /// One line naming the file and the problem.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .notJSON(let path, let detail):
            "\(path) is not JSON: \(detail)"
        case .notAnObject(let path, let found):
            #"\#(path): the top level is \#(found), not an object of arrays such as {"posts": [{"id": 1}]}"#
        case .notAnArray(let path, let collection, let found):
            #"\#(path): "\#(collection)" is \#(found), not an array of items"#
        case .unusableName(let path, let collection, let reason):
            #"\#(path): "\#(collection)" cannot be a collection name: \#(reason)"#
        case .itemNotAnObject(let path, let collection, let index, let found):
            "\(path): \(collection)[\(index)] is \(found), not an object"
        case .missingKey(let path, let collection, let index, let keyField):
            #"\#(path): \#(collection)[\#(index)] has no "\#(keyField)" (choose the key field with --key)"#
        case .invalidKey(let path, let collection, let index, let keyField, let problem):
            #"\#(path): \#(collection)[\#(index)].\#(keyField) \#(problem)"#
        case .duplicateKey(let path, let collection, let index, let firstIndex, let keyField, let key):
            #"\#(path): \#(collection)[\#(index)] has the same "\#(keyField)" as \#(collection)[\#(firstIndex)]: \#(key)"#
        }
    }

    /// Whether the file could not be read at all (rather than read and found wrong).
    public var isUnreadable: Bool {
        if case .unreadable = self { true } else { false }
    }
}
