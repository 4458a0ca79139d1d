import HTTPTypes
import Hummingbird
import NIOCore

extension Reply {
    /// The error a `.close` fault throws after writing half the body, so Hummingbird drops the connection.
    struct ConnectionDropped: Error {}

    /// The bytes that stand in for a body under an `.invalidJSON` fault.
    static let invalidJSON = ByteBuffer(string: #"{"data": [{"id": 1, "title": "unterminated"#)

    /// The Hummingbird response, with HEAD and body faults applied, and the body bytes it sends.
    func response(isHead: Bool, bodyFault: FaultRule.Failure?) -> (response: Response, bodyBytes: Int) {
        var headers = self.headers
        guard !isHead, status != .notModified, status != .noContent else {
            // HEAD keeps the Content-Length the GET would have; 304 and 204 have no body at all.
            if isHead { headers[.contentLength] = String(body.readableBytes) }
            return (Response(status: status, headers: headers, body: ResponseBody()), 0)
        }
        switch bodyFault {
        case .truncate where body.readableBytes > 1:
            let half = body.getSlice(at: body.readerIndex, length: body.readableBytes / 2) ?? body
            return (Response(status: status, headers: headers, body: ResponseBody(byteBuffer: half)), half.readableBytes)
        case .close where body.readableBytes > 1:
            let half = body.getSlice(at: body.readerIndex, length: body.readableBytes / 2) ?? body
            let dropping = ResponseBody(contentLength: body.readableBytes) { writer in
                try await writer.write(half)
                throw ConnectionDropped()
            }
            return (Response(status: status, headers: headers, body: dropping), half.readableBytes)
        case .invalidJSON:
            // The stand-in bytes are plain text: a gzip representation's Content-Encoding would
            // make them undecodable instead of invalid JSON.
            headers[.contentEncoding] = nil
            return (Response(status: status, headers: headers, body: ResponseBody(byteBuffer: Self.invalidJSON)),
                    Self.invalidJSON.readableBytes)
        default:
            return (Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body)), body.readableBytes)
        }
    }
}
