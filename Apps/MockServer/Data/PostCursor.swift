import Foundation

// MARK: - PostCursor

/// The opaque cursor of `/posts`: base64url (no padding) of `after:<id>`.
///
/// Keyset pagination: a cursor names the last id a client has seen, not a position, so it stays
/// valid while posts are inserted (ids only grow) or deleted, with no duplicates and no gaps.
struct PostCursor: Equatable, Sendable {
    /// The id of the last post of the previous page; the next page starts after it.
    var afterID: Int

    /// The wire form.
    var encoded: String {
        Data("after:\(afterID)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    init(afterID: Int) {
        self.afterID = afterID
    }

    /// Decodes a cursor a client sent back; anything this server did not mint is rejected.
    init(encoded: String) throws(APIError) {
        var base64 = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("after:"), let id = Int(text.dropFirst("after:".count)), id >= 0
        else {
            throw .invalidQuery(name: "cursor", message: "'\(encoded)' is not a cursor this server issued")
        }
        self.afterID = id
    }
}
