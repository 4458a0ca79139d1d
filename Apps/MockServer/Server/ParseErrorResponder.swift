import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers bytes that NIO's HTTP parser rejects with this server's JSON error, where
/// Hummingbird would send an empty 400: 431 when the header section is over the limit, 400
/// otherwise. The connection is closed afterwards, since nothing after a parse error can be
/// trusted to be framed correctly.
final class ParseErrorResponder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    /// The largest header section accepted: the server's decoder limit, which the 431 names.
    static let headerLimit = 80 * 1024

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let reply = Reply(error: parserError == .headerOverflow
            ? .headersTooLarge(limit: Self.headerLimit)
            : .malformedRequest(String(describing: parserError)))
        var headers = reply.headers
        headers[.connection] = "close"
        headers[.contentLength] = String(reply.body.readableBytes)
        context.write(wrapOutboundOut(.head(HTTPResponse(status: reply.status, headerFields: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(reply.body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.close(promise: nil)
    }
}
