import Foundation
import JSON

/// A page's body as a JSON document, whatever shape the server chose:
/// - one JSON document, the usual;
/// - NDJSON (JSON Lines): a document per line, read as the array of them;
/// - a single object with no array in it (a settings document, one record): read as an array
///   holding that object, so it is mirrored as one item.
public enum PageBody {
    /// The document of `body`; `itemsAtRoot` is whether the items are (or, before the plan is known,
    /// may be) the root: when `false`, a single object is read as it is.
    public static func document(_ body: Data, recordedDepth: Int, itemsAtRoot: Bool) throws(JSONSyntaxError) -> JSONDocument {
        let document: JSONDocument
        do {
            document = try JSONDocument(body, recordedDepth: recordedDepth)
        } catch {
            guard let lines = linesAsArray(body), let array = try? JSONDocument(lines, recordedDepth: recordedDepth) else { throw error }
            return array
        }
        guard itemsAtRoot, ItemLocator.isSingleObject(document) else { return document }
        return try JSONDocument(Data("[".utf8) + body + Data("]".utf8), recordedDepth: recordedDepth)
    }

    /// NDJSON's lines as one JSON array, when the body has two or more non-empty lines.
    static func linesAsArray(_ body: Data) -> Data? {
        let lines = body.split(separator: UInt8(ascii: "\n")).filter { line in
            line.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D) }
        }
        guard lines.count >= 2 else { return nil }
        return Data("[".utf8) + Data(lines.joined(separator: Data(",".utf8))) + Data("]".utf8)
    }
}
