import Foundation
import MirrorStore
import NamedSources

/// What `fresh sync WORD` (and `fresh-reader NAME`) names: a URL, a source (see `fresh
/// source`), or a collection synced before. Names come first; a word that is neither a name
/// nor shaped like an address is an error at once, without a DNS lookup.
public enum SyncTarget: Sendable {
    case url(URL)
    case source(Source)
    case collection(CollectionRecord)

    /// The collection's name as it will be reported.
    public var name: String {
        switch self {
        case .url(let url): url.absoluteString
        case .source(let source): source.name
        case .collection(let collection): collection.name
        }
    }

    public static func resolve(_ word: String, sources: [Source], store: any MirrorReading) async throws -> SyncTarget {
        if word.contains("://") { return .url(try ParsedURL.parse(word).url) }
        if let source = sources.first(where: { $0.name == word }) { return .source(source) }
        // A name in another letter case, as collections are found: when only one source has it.
        let folded = sources.filter { $0.name.lowercased() == word.lowercased() }
        if folded.count == 1 { return .source(folded[0]) }
        if let collection = try await store.collection(meaning: word) { return .collection(collection) }
        guard looksLikeAnAddress(word) else {
            throw UnknownSyncTarget(word: word, sources: sources.map(\.name), collections: try await store.collections().map(\.name))
        }
        return .url(try ParsedURL.parse(word).url)
    }

    /// `example.com/a`, `localhost:8080`, `127.0.0.1`: a host, as curl reads a URL without a scheme.
    public static func looksLikeAnAddress(_ word: String) -> Bool {
        word == "localhost" || word.contains(".") || word.contains(":") || word.contains("/")
    }
}

/// A word given to `fresh sync` that is neither a URL nor a known name (exit 64).
public struct UnknownSyncTarget: Error, CustomStringConvertible {
    public var word: String
    public var sources: [String]
    public var collections: [String]

    public var description: String {
        var known: [String] = []
        if !sources.isEmpty { known.append("sources: " + sources.joined(separator: ", ")) }
        let others = collections.filter { !sources.contains($0) }
        if !others.isEmpty { known.append("collections: " + others.joined(separator: ", ")) }
        return "'\(word)' is neither a URL nor a known name ("
            + (known.isEmpty ? "no sources or collections yet: 'fresh source add NAME URL' names one" : known.joined(separator: "; ")) + ")"
    }
}
