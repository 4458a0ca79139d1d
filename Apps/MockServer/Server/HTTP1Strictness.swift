import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// RFC 9112's rules about a request's version and `Host` field, which Hummingbird cannot apply
/// (its requests are HTTP types, without a version), applied to the raw HTTP/1 parts:
///
/// - §3.2: an HTTP/1.1 request carries exactly one `Host` field. Without one, or with two, it is
///   answered 400 (this server's JSON error) and the connection is closed.
/// - §9.3: an HTTP/1.0 request without `Connection: keep-alive`, or any with `Connection: close`,
///   gets its response with `Connection: close`, then the connection closes, so a client that
///   reads until the end of the stream is not left waiting.
final class HTTP1Strictness: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether each request whose response has not gone out yet keeps the connection open, in
    /// order (HTTP/1.1 answers pipelined requests in order).
    private var keepAlive: [Bool] = []
    /// A refused request: its parts are dropped until its end, then the connection closes.
    private var refusing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let hosts = head.headers["host"].count
            if head.version.minor >= 1 && head.version.major == 1 && hosts != 1 {
                refusing = true
                refuse(context, reason: hosts == 0 ? "no Host field" : "\(hosts) Host fields")
                return
            }
            keepAlive.append(head.isKeepAlive)
        case .body, .end:
            if refusing { return }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where !(100..<200).contains(head.status.code):  // not a 1xx before the final response
            if keepAlive.first == false { head.headers.replaceOrAdd(name: "connection", value: "close") }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end(let trailers):
            let closes = keepAlive.isEmpty ? false : !keepAlive.removeFirst()
            guard closes else { return context.write(wrapOutboundOut(.end(trailers)), promise: promise) }
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            written.futureResult.whenComplete { _ in context.close(promise: nil) }
            context.write(wrapOutboundOut(.end(trailers)), promise: written)
        default:
            context.write(data, promise: promise)
        }
    }

    /// Answers a request that breaks §3.2 with a 400 and closes the connection.
    private func refuse(_ context: ChannelHandlerContext, reason: String) {
        let reply = Reply(error: .malformedRequest("an HTTP/1.1 request needs exactly one Host field, and this one has \(reason)"))
        var headers = HTTPHeaders(reply.headers.map { ($0.name.rawName, $0.value) })
        headers.replaceOrAdd(name: "connection", value: "close")
        headers.replaceOrAdd(name: "content-length", value: String(reply.body.readableBytes))
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: reply.status.code), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(reply.body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    /// A handler for Hummingbird's additional handlers, which come after the conversion to
    /// HTTP types: when added, it puts an ``HTTP1Strictness`` before that conversion and leaves.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            do {
                let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
                try pipeline.addHandler(HTTP1Strictness(), position: .before(codec))
            } catch {
                context.fireErrorCaught(error)
            }
            pipeline.removeHandler(context: context, promise: nil)
        }
    }
}
