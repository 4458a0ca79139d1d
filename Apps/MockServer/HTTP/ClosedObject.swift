/// A member name as a coding key: what lets a decoder list every member an object has, including
/// those its own keys do not name.
struct MemberName: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// Throws for a member of this object that `Keys` does not name, as `additionalProperties:
    /// false` says in `/openapi.json`: a misspelt member (`latency` for `latency_ms`) would
    /// otherwise be dropped, and the request would do less than it asked without a word.
    func rejectUnknownMembers<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        let known = Keys.allCases.map(\.stringValue)
        let members = try container(keyedBy: MemberName.self).allKeys.map(\.stringValue)
        // The first in sorted order, so that the same body always names the same member.
        guard let unknown = members.filter({ !known.contains($0) }).sorted().first else { return }
        throw DecodingError.dataCorrupted(.init(
            codingPath: codingPath + [MemberName(stringValue: unknown)],
            debugDescription: "is not a member of this object (it takes \(known.sorted().joined(separator: ", ")))"))
    }
}
