import Foundation
import JSON

/// A page as the server sent it, without its items: the header fields a client reads and the
/// body's text around the items' array. What `fresh-mock --mirror` serves around the stored
/// items, so a client walks the replay as it walked the origin.
public struct PageEnvelope: Codable, Sendable, Equatable {
    /// The header fields kept, by name as sent, in order.
    public var fields: [Field]
    /// The body's text before the items' array, and after it: both empty when the array was the
    /// whole body.
    public var before: String
    public var after: String

    /// One header field.
    public struct Field: Codable, Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The header fields kept: those a client's walk reads (`Link`, totals), the validators a
    /// replay answers conditional requests with, and the media type.
    public static let keptFieldNames: Set<String> = ["link", "x-total-count", "etag", "last-modified", "content-type"]

    public init(fields: [Field], before: String, after: String) {
        self.fields = fields
        self.before = before
        self.after = after
    }

    /// The envelope of `body`, whose items' array is at `itemsRange` (byte offsets), sent with `fields`.
    public init(body: Data, itemsRange: Range<Int>, fields: [Field]) {
        self.fields = fields.filter { Self.keptFieldNames.contains($0.name.lowercased()) }
        before = String(decoding: body.prefix(itemsRange.lowerBound), as: UTF8.self)
        after = String(decoding: body.dropFirst(itemsRange.upperBound), as: UTF8.self)
    }

    /// The value of the first field called `name` (any letter case).
    public func value(of name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The page's body again, with `items` (each an item's JSON text) as its array.
    public func body(items: [String]) -> Data {
        var body = Data(before.utf8)
        body.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: item.utf8)
        }
        body.append(UInt8(ascii: "]"))
        body.append(contentsOf: after.utf8)
        return body
    }

    /// The envelope as stored: compact JSON text, its members in a fixed order (the same
    /// envelope is the same text, which a replay's entity tags are made from). Written by hand,
    /// without a `JSONEncoder` for each page a sync stores.
    public var storedText: String {
        var text = #"{"after":"#
        text.reserveCapacity(before.utf8.count + after.utf8.count + fields.count * 40 + 64)
        text += JSONText.quoted(after)
        text += #","before":"#
        text += JSONText.quoted(before)
        text += #","fields":["#
        for (index, field) in fields.enumerated() {
            if index > 0 { text += "," }
            text += #"{"name":"#
            text += JSONText.quoted(field.name)
            text += #","value":"#
            text += JSONText.quoted(field.value)
            text += "}"
        }
        return text + "]}"
    }

    /// The envelope `text` stored; `nil` when it cannot be read.
    public init?(storedText text: String) {
        guard let envelope = try? JSONDecoder().decode(PageEnvelope.self, from: Data(text.utf8)) else { return nil }
        self = envelope
    }
}

/// A stored page with what a replay serves around its items (`nil` for pages stored before
/// envelopes were kept, or whose body was not one JSON document: NDJSON, a single object).
public struct RecordedPage: Sendable, Equatable {
    public var record: PageRecord
    public var envelope: PageEnvelope?

    public init(record: PageRecord, envelope: PageEnvelope?) {
        self.record = record
        self.envelope = envelope
    }
}
