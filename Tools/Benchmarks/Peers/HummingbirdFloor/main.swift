// hummingbird-floor: the least a Hummingbird server can do per request, as a peer for
// Tools/bench-mock-server.sh. It answers every GET with the bytes of one file, or a 304 when
// If-None-Match repeats its ETag, through the same HummingbirdCore server and a custom
// HTTPResponder as fresh-mock, with nothing else: no routing, faults, statistics or journal.
// fresh-mock's distance to nginx minus this server's is what fresh-mock itself costs.
//
// Usage: hummingbird-floor BODY_FILE   (binds 127.0.0.1, port from the OS; prints its URL)
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

struct FloorContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

struct FloorResponder: HTTPResponder {
    let body: ByteBuffer
    let okHeaders: HTTPFields
    let notModifiedHeaders: HTTPFields
    let entityTag: String

    func respond(to request: Request, context: FloorContext) async throws -> Response {
        if request.headers[.ifNoneMatch] == entityTag {
            return Response(status: .notModified, headers: notModifiedHeaders)
        }
        return Response(status: .ok, headers: okHeaders, body: ResponseBody(byteBuffer: body))
    }
}

guard CommandLine.arguments.count == 2, let bytes = FileManager.default.contents(atPath: CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: hummingbird-floor BODY_FILE\n".utf8))
    exit(64)
}
let entityTag = "\"floor\""
let responder = FloorResponder(
    body: ByteBuffer(bytes: bytes),
    okHeaders: [.contentType: "application/json; charset=utf-8", .eTag: entityTag, .cacheControl: "max-age=60"],
    notModifiedHeaders: [.eTag: entityTag, .cacheControl: "max-age=60"],
    entityTag: entityTag)
let application = Application(
    responder: responder,
    configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0), serverName: "hummingbird-floor"),
    onServerRunning: { channel in
        FileHandle.standardOutput.write(Data("http://127.0.0.1:\(channel.localAddress?.port ?? 0)\n".utf8))
    }
)
try await application.runService()
