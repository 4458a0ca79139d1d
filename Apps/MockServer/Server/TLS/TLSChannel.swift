import HummingbirdCore
import Logging
import NIOCore

/// A Hummingbird child channel with ``TLSServerHandler`` in front of `base`'s handlers.
struct TLSChannel<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base
    let context: TLSContext

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(TLSServerHandler(context: context))
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 over TLS with `context`'s certificate.
    static func http1(configuration: HTTP1Channel.Configuration, tls context: TLSContext) -> HTTPServerBuilder {
        .init { responder in TLSChannel(base: HTTP1Channel(responder: responder, configuration: configuration), context: context) }
    }
}
