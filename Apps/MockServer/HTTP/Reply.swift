import Foundation
import HTTPTypes
import Hummingbird
import Models
import NIOCore

/// A response as the handlers build it, before faults and HEAD handling turn it into a
/// Hummingbird `Response`; carries what the statistics need to know.
struct Reply: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields = [:]
    var body = ByteBuffer()
    /// For a 304: the size of the body the client already had and did not need again.
    var bytesSaved = 0
    /// The validator header that decided the answer, if one did.
    var condition: ConditionalOutcome?
    /// Whether a mirror recorded no page for the request (``APIError/notRecorded(message:nearest:differences:)``).
    var isMiss = false

    /// The media type of every body this server sends.
    static let jsonContentType = "application/json; charset=utf-8"
}

extension Reply {
    /// A JSON reply of an encodable value (admin answers, created posts).
    init(status: HTTPResponse.Status = .ok, json value: some Encodable, headers: HTTPFields = [:]) {
        self.init(status: status, headers: headers, body: ByteBuffer(bytes: APIJSON.encode(value)))
        self.headers[.contentType] = Self.jsonContentType
    }

    /// The JSON error reply of `error`.
    init(error: APIError) {
        self.init(status: error.status, json: error.body, headers: error.headers)
        self.headers[.cacheControl] = CacheDirectives.adminHeaderValue
        if case .preconditionFailed(let header, _) = error {
            self.condition = ConditionalOutcome(header: header, result: .unmatched)
        }
        if case .notRecorded = error { isMiss = true }
    }
}

extension Reply {
    /// `--hostile-text`: the `X-Mock-Note` field with ``HostileText/headerValue`` (sent as is,
    /// controls and all, as a broken server sends it), and an error's message followed by a
    /// hostile sample.
    mutating func makeHostile(sample number: Int) {
        headers.append(HTTPField(name: .xMockNote, lenientValue: Array(HostileText.headerValue.utf8)))
        guard status.code >= 400, let error = try? JSONDecoder().decode(APIErrorBody.self, from: Data(buffer: body)) else { return }
        let hostile = APIErrorBody(code: error.error.code, message: error.error.message + " — " + HostileText.sample(number))
        body = ByteBuffer(bytes: APIJSON.encode(hostile))
    }
}

extension HTTPField.Name {
    /// `--hostile-text`'s field on every answer.
    static let xMockNote = HTTPField.Name("X-Mock-Note")!
}
