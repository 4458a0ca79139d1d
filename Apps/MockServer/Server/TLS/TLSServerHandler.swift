import COpenSSL
import NIOCore

/// TLS on one connection, first in its pipeline: the bytes that arrive are handed to OpenSSL
/// (through a memory buffer, `BIO_s_mem`), which answers the handshake and gives back the
/// plaintext for the HTTP handlers behind; what they write is encrypted the same way. A
/// connection whose handshake fails (a client that does not trust the certificate) is closed
/// after OpenSSL's alert is sent.
final class TLSServerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The connection's session (`SSL`); it owns the two buffers.
    private let session: OpaquePointer
    /// What arrived from the client, for OpenSSL to read.
    private let received: OpaquePointer
    /// What OpenSSL wrote for the client, to be sent.
    private let toSend: OpaquePointer
    /// Writes from the handlers behind made before the handshake ended.
    private var waitingWrites: [(ByteBuffer, EventLoopPromise<Void>?)] = []

    init(context: TLSContext) throws {
        guard let session = SSL_new(context.context), let received = BIO_new(BIO_s_mem()), let toSend = BIO_new(BIO_s_mem()) else {
            throw TLSContext.failure("cannot start a TLS session")
        }
        SSL_set_bio(session, received, toSend)
        SSL_set_accept_state(session)
        self.session = session
        self.received = received
        self.toSend = toSend
    }

    deinit { SSL_free(session) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        bytes.withUnsafeReadableBytes { _ = BIO_write(received, $0.baseAddress, Int32($0.count)) }
        if SSL_is_init_finished(session) == 0, !handshake(context) { return }
        readPlaintext(context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let plaintext = unwrapOutboundIn(data)
        guard SSL_is_init_finished(session) == 1 else { return waitingWrites.append((plaintext, promise)) }
        encrypt(plaintext, context: context, promise: promise)
    }

    /// Sends close_notify before the connection closes, as a TLS server does on a clean close.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode != .input, SSL_is_init_finished(session) == 1 {
            _ = SSL_shutdown(session)
            send(context, promise: nil)
            context.flush()
        }
        context.close(mode: mode, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        let writes = waitingWrites
        waitingWrites = []
        writes.forEach { $0.1?.fail(ChannelError.ioOnClosedChannel) }
        context.fireChannelInactive()
    }

    // MARK: Steps

    /// Moves the handshake on; true once it is done (the writes that waited for it then go).
    private func handshake(_ context: ChannelHandlerContext) -> Bool {
        let result = SSL_do_handshake(session)
        guard result == 1 else {
            let wantsMore = SSL_get_error(session, result) == SSL_ERROR_WANT_READ
            send(context, promise: nil)  // the server's part of the handshake, or its alert
            context.flush()
            if !wantsMore {
                _ = TLSContext.lastError()  // the client's refusal: nothing for the server to report
                context.close(promise: nil)
            }
            return false
        }
        let writes = waitingWrites
        waitingWrites = []
        for (plaintext, promise) in writes { encrypt(plaintext, context: context, promise: promise) }
        send(context, promise: nil)
        context.flush()
        return true
    }

    /// Hands on every whole record of plaintext that has arrived; closes on the client's close_notify.
    private func readPlaintext(_ context: ChannelHandlerContext) {
        var plaintext = context.channel.allocator.buffer(capacity: 16 * 1024)
        var result: Int32 = 0
        repeat {
            plaintext.writeWithUnsafeMutableBytes(minimumWritableBytes: 16 * 1024) { room in
                result = SSL_read(session, room.baseAddress, Int32(room.count))
                return Int(max(0, result))
            }
        } while result > 0
        let error = SSL_get_error(session, result)
        if plaintext.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(plaintext)) }
        send(context, promise: nil)  // OpenSSL may answer while reading (a key update, session tickets)
        context.flush()
        if error != SSL_ERROR_WANT_READ {
            _ = TLSContext.lastError()
            context.close(promise: nil)
        }
    }

    private func encrypt(_ plaintext: ByteBuffer, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        // Into a memory buffer, SSL_write takes every byte at once.
        if plaintext.readableBytes > 0 {
            let written = plaintext.withUnsafeReadableBytes { SSL_write(session, $0.baseAddress, Int32($0.count)) }
            guard written > 0 else {
                _ = TLSContext.lastError()
                promise?.fail(ChannelError.ioOnClosedChannel)
                return context.close(promise: nil)
            }
        }
        send(context, promise: promise)
    }

    /// Writes (without flushing) what OpenSSL has for the client; `promise` is kept with it.
    private func send(_ context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        let pending = Int(BIO_ctrl_pending(toSend))
        guard pending > 0 else {
            promise?.succeed()
            return
        }
        var ciphertext = context.channel.allocator.buffer(capacity: pending)
        ciphertext.writeWithUnsafeMutableBytes(minimumWritableBytes: pending) { room in
            Int(max(0, BIO_read(toSend, room.baseAddress, Int32(pending))))
        }
        context.write(wrapOutboundOut(ciphertext), promise: promise)
    }
}
