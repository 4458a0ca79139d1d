import HTTPFields
import HTTPTypes

/// The header fields of a response whose body was decoded (gzip, deflate, br, zstd; see
/// ``BodyDecoding``): the body is now the identity representation, so `Content-Encoding` and
/// `Content-Length` (which describe the bytes on the wire) no longer apply and are dropped, as
/// browsers drop them.
/// `Vary: Accept-Encoding` stays: the cache keys this decoded variant by the request's own
/// fields, where `Accept-Encoding` is absent.
enum DecodedRepresentation {
    static func fields(of fields: HTTPFields) -> HTTPFields {
        let codings = FieldList.elements(fields[values: .contentEncoding])
        guard codings.contains(where: { !$0.caseInsensitiveEquals("identity") }) else { return fields }
        var decoded = fields
        decoded[.contentEncoding] = nil
        decoded[.contentLength] = nil
        return decoded
    }
}
