import Foundation
import HTTPFields
import HTTPTypes
import Synchronization

/// Builds the cache keys of RFC 9111 §2 and §4.1.
public enum CacheKey {
    /// The primary key: method and the absolute URL with its query (each cursor page is its
    /// own entry) and without its fragment. HEAD shares GET's entry.
    public static func primary(method: HTTPRequest.Method, url: URL) -> String {
        let storedMethod = method == .head ? HTTPRequest.Method.get : method
        return "\(storedMethod.rawValue) \(normalized(url))"
    }

    /// The URL as the key spells it: fragment dropped, scheme and host lower-cased.
    public static func normalized(_ url: URL) -> String {
        let absolute = url.absoluteString
        if isAlreadyNormalized(absolute) { return absolute }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return absolute }
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if components.path.isEmpty { components.path = "/" }
        return components.string ?? absolute
    }

    /// Whether `absolute` already reads as ``normalized(_:)`` would spell it: ASCII, a lower-case
    /// scheme and plain lower-case host (no user info, no IP literal), a path, no fragment. The
    /// common case on every lookup, answered without parsing the URL again.
    static func isAlreadyNormalized(_ absolute: String) -> Bool {
        var absolute = absolute
        return absolute.withUTF8 { bytes in
            func isLowerLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
            var index = 0
            while index < bytes.count, isLowerLetter(bytes[index]) || bytes[index] == UInt8(ascii: "+")
                    || bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: ".") {
                index += 1
            }
            guard index > 0, bytes.count > index + 3, bytes[index] == UInt8(ascii: ":"),
                  bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") else { return false }
            index += 3
            let authorityStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "/") {
                let byte = bytes[index]
                guard isLowerLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: ".")
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") else { return false }
                index += 1
            }
            guard index > authorityStart, index < bytes.count, bytes[authorityStart] != UInt8(ascii: ":") else { return false }
            while index < bytes.count {
                let byte = bytes[index]
                guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "#") else { return false }
                index += 1
            }
            return true
        }
    }

    /// The secondary key: the request's values of every field the response's `Vary` names, and of
    /// the fields that say who asks or whom (``SecretFields``, and a `Host` the request sets itself)
    /// when the request has them, with whitespace normalised; a field the request lacks is spelled
    /// without `=`, since it only matches another request that lacks it too, not an empty value.
    /// A secret's value enters as a digest. A request whose server certificate was not checked
    /// (`uncheckedTLS`: `-k` over HTTPS) ends with ``uncheckedTLSPart``: what it brought answers
    /// only such requests, never one that checks. `nil` when `Vary: *`, which never matches (§4.1).
    ///
    /// A response is so reused only for a request with the same credentials, as if the server had
    /// named them in `Vary`: a cache on a developer's machine serves requests made with several
    /// tokens and users, and one's answer must not be handed to another, nor to a request without
    /// credentials (RFC 9111 §3.5 lets a private cache store such responses). The digests (FNV-1a,
    /// 64 bits) tell them apart and keep them out of the cache file as text; they do not stop
    /// someone who reads the file from guessing a weak password, no more than the responses it
    /// holds are hidden.
    public static func variant(vary: [String], requestFields: HTTPFields, uncheckedTLS: Bool = false) -> String? {
        let inputs = VariantInputs(vary: vary, requestFields: requestFields, uncheckedTLS: uncheckedTLS)
        if let last = lastVariant.withLock({ $0 }), last.inputs == inputs { return last.key }
        let key = makeVariant(vary: vary, requestFields: requestFields, uncheckedTLS: uncheckedTLS)
        lastVariant.withLock { $0 = (inputs, key) }
        return key
    }

    /// What a variant key is made from. Compared byte for byte: Swift's `==` on strings holds the
    /// same text in two Unicode forms equal, where a secret's digest is made from its bytes.
    private struct VariantInputs: Equatable {
        var vary: [String]
        var requestFields: HTTPFields
        var uncheckedTLS: Bool

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.uncheckedTLS == rhs.uncheckedTLS
                && lhs.vary.elementsEqual(rhs.vary) { $0.utf8.elementsEqual($1.utf8) }
                && lhs.requestFields.count == rhs.requestFields.count
                && zip(lhs.requestFields, rhs.requestFields).allSatisfy { $0.name == $1.name && $0.value.utf8.elementsEqual($1.value.utf8) }
        }
    }

    /// The last variant key made, with its inputs. A sync asks for the same one for every page (the
    /// same request fields, the same `Vary`), on the path from one page's answer to the next
    /// page's request, and comparing the inputs costs a fraction of making the key again.
    private static let lastVariant = Mutex<(inputs: VariantInputs, key: String?)?>(nil)

    private static func makeVariant(vary: [String], requestFields: HTTPFields, uncheckedTLS: Bool) -> String? {
        let names = FieldList.elements(vary).map { $0.lowercased() }
        if names.contains("*") { return nil }
        let implicit = requestFields.map(\.name.canonicalName).filter { SecretFields.isSecret($0) || $0 == "host" }
        let parts = Set(names).union(implicit).sorted().map { name in
            let values = HTTPField.Name(name).map { requestFields[values: $0] } ?? []
            if values.isEmpty { return name }
            // The list grammar of HTTPFields: a comma inside a quoted string does not separate.
            let normalisedValue = FieldList.elements(values)
                .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
                .joined(separator: ",")
            if SecretFields.isSecret(name) { return "\(name)=#\(FNV1a64.hex(Data(normalisedValue.utf8)))" }
            return "\(name)=\(normalisedValue)"
        }
        return (parts + (uncheckedTLS ? [uncheckedTLSPart] : [])).joined(separator: "\n")
    }

    /// The part of a variant key that marks a response fetched without checking the server's certificate.
    static let uncheckedTLSPart = "tls=unchecked"
}
