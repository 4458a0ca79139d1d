import JSON
import Foundation

/// Loads a `--data` file: a JSON object whose members are collections, each an array of
/// objects keyed by one field, as json-server's `db.json`:
///
/// ```json
/// {"posts": [{"id": 1, "title": "hello"}], "tags": [{"id": "swift", "count": 3}]}
/// ```
///
/// Keys are all integers or all strings within a collection; an empty collection takes integer
/// keys. Every problem is one ``DataFileError`` naming the file, the collection and the item.
enum DataFile {
    /// Names a collection may not have: the server's own routes.
    static let reservedNames: Set<String> = ["styles", "_admin", "openapi.json"]

    /// The collections of the file at `path`, keyed by `keyField`, each item's `Last-Modified`
    /// the file's modification time.
    static func load(path: String, keyField: String) throws(DataFileError) -> [ItemCollection] {
        let bytes: Data
        let modified: Date
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                throw DataFileError.unreadable(path: path, reason: "it is a directory")
            }
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            modified = (attributes[.modificationDate] as? Date) ?? Date()
        } catch let error as DataFileError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: reason(error))
        }
        return try collections(in: bytes, path: path, keyField: keyField, modified: modified.inWholeSeconds)
    }

    /// The collections of `bytes` (the contents of the file `path`).
    static func collections(in bytes: Data, path: String, keyField: String, modified: Date) throws(DataFileError) -> [ItemCollection] {
        guard !bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw .notJSON(path: path, detail: "the file is empty")
        }
        let document: JSONTree
        do {
            document = try JSONDecoder().decode(JSONTree.self, from: bytes)
        } catch {
            throw .notJSON(path: path, detail: parseProblem(in: bytes))
        }
        guard let members = document.objectMembers else {
            throw .notAnObject(path: path, found: document.kindDescription)
        }
        // Sorted, so that the first problem reported is the same on every run.
        return try members.keys.sorted().map { (name) throws(DataFileError) in
            try collection(name, members[name] ?? .null, path: path, keyField: keyField, modified: modified)
        }
    }

    // MARK: One collection

    private static func collection(
        _ name: String, _ value: JSONTree, path: String, keyField: String, modified: Date
    ) throws(DataFileError) -> ItemCollection {
        if let reason = problem(withName: name) { throw .unusableName(path: path, collection: name, reason: reason) }
        guard case .array(let elements) = value else {
            throw .notAnArray(path: path, collection: name, found: value.kindDescription)
        }
        var items: [MockItem] = []
        var firstIndex: [ItemKey: Int] = [:]
        var kind: ItemCollection.KeyKind?
        for (index, element) in elements.enumerated() {
            guard let members = element.objectMembers else {
                throw .itemNotAnObject(path: path, collection: name, index: index, found: element.kindDescription)
            }
            guard let rawKey = members[keyField] else {
                throw .missingKey(path: path, collection: name, index: index, keyField: keyField)
            }
            guard let key = rawKey.itemKey else {
                throw .invalidKey(path: path, collection: name, index: index, keyField: keyField,
                                  problem: "is \(rawKey.kindDescription), not an integer or a string")
            }
            guard key != .string("") else {
                throw .invalidKey(path: path, collection: name, index: index, keyField: keyField,
                                  problem: "is an empty string (a key is part of a URL path)")
            }
            if let kind, kind != key.kind {
                throw .invalidKey(path: path, collection: name, index: index, keyField: keyField,
                                  problem: "is \(rawKey.kindDescription), but the ones before it are \(kind == .integer ? "integers" : "strings")")
            }
            kind = key.kind
            if let first = firstIndex[key] {
                throw .duplicateKey(path: path, collection: name, index: index, firstIndex: first, keyField: keyField, key: key.text)
            }
            firstIndex[key] = index
            items.append(MockItem(key: key, value: element, updatedAt: modified))
        }
        return ItemCollection(name: name, keyField: keyField, keyKind: kind ?? .integer, items: items, baseline: modified)
    }

    /// Why `name` cannot be a collection, or `nil` when it can.
    static func problem(withName name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if reservedNames.contains(name) { return "/\(name) is one of the server's own routes" }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._".utf8)
        if !name.utf8.allSatisfy(allowed.contains) || name == "." || name == ".." {
            return "a name is letters, digits, '-', '.' and '_' (it is a URL path segment)"
        }
        return nil
    }

    // MARK: Messages

    /// The reason of a read failure, without Foundation's framing.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSCocoaErrorDomain {
            switch nsError.code {
            case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "no such file"
            case NSFileReadNoPermissionError: return "permission denied"
            default: break
            }
        }
        return nsError.localizedDescription
    }

    /// Where and why the JSON parser gave up ("invalid value around line 3, column 12"):
    /// JSONSerialization's message, its character offset turned into a line and a column.
    private static func parseProblem(in bytes: Data) -> String {
        let message: String
        do {
            _ = try JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed])
            return "the JSON is not valid"
        } catch {
            message = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "the JSON is not valid"
        }
        let trimmed = message.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        let lowered = trimmed.prefix(1).lowercased() + trimmed.dropFirst()
        guard let match = lowered.firstMatch(of: /(.*) around character (\d+)/), let offset = Int(match.2) else { return lowered }
        let prefix = bytes.prefix(offset)
        let line = prefix.count { $0 == UInt8(ascii: "\n") } + 1
        let column = offset - (prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return "\(match.1) around line \(line), column \(column)"
    }
}
