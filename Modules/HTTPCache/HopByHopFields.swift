import HTTPFields
import HTTPTypes

/// Fields that describe one connection rather than the response (RFC 9110 §7.6.1). A cache
/// never stores them, so a stored response never replays them (RFC 9111 §3.1).
enum HopByHopFields {
    /// Always hop-by-hop, beside the fields `Connection` names and every `Proxy-*` field.
    private static let fixedNames: Set<String> = ["connection", "keep-alive", "te", "transfer-encoding", "upgrade"]

    static func removed(from fields: HTTPFields) -> HTTPFields {
        let named = Set(FieldList.elements(fields[values: .connection]).map { $0.lowercased() })
        return fields.filter { field in
            let name = field.name.canonicalName
            return !fixedNames.contains(name) && !named.contains(name) && !name.hasPrefix("proxy-")
        }
    }
}
