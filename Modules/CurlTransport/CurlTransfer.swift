import CCurl
import Foundation
import HTTPCache
import HTTPTypes
import Synchronization

/// One transfer: sets a handle up for a request, runs it, and collects status, headers and
/// body through libcurl's callbacks.
final class CurlTransfer: Sendable {
    let request: TransportRequest
    private let connectTimeout: Duration
    private let userAgent: String
    private let cancelled = Atomic<Bool>(false)

    init(request: TransportRequest, connectTimeout: Duration, userAgent: String) {
        self.request = request
        self.connectTimeout = connectTimeout
        self.userAgent = userAgent
    }

    /// Asks the running transfer to stop at its next progress callback.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Runs the transfer on the calling thread (it blocks until done).
    func perform(on handle: CurlHandlePool.Handle) throws -> TransportResponse {
        let curl = handle.raw
        let sink = ResponseSink(transfer: self, handle: curl)
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { fresh_curl_slist_free_all(headerList) }

        try check(fresh_curl_set_string(curl, CURLOPT_URL, request.url.absoluteString))
        _ = fresh_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, sink.errorBuffer)
        defer { _ = fresh_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, nil) }
        _ = fresh_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = fresh_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        _ = fresh_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, connectTimeout.milliseconds)
        // A server that accepts the connection and then stalls: give up after 30 s without a byte.
        _ = fresh_curl_set_long(curl, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = fresh_curl_set_long(curl, CURLOPT_LOW_SPEED_TIME, 30)
        if let timeout = request.timeout {
            _ = fresh_curl_set_long(curl, CURLOPT_TIMEOUT_MS, max(1, timeout.milliseconds))
        }
        _ = fresh_curl_set_string(curl, CURLOPT_USERAGENT, userAgent)
        // Unless the caller asked for codings of its own, offer every one libcurl can decode
        // ("" = all of them) and hand back the decoded representation.
        let decodes = request.headerFields[.acceptEncoding] == nil
        if decodes { _ = fresh_curl_set_string(curl, CURLOPT_ACCEPT_ENCODING, "") }
        _ = fresh_curl_set_long(curl, CURLOPT_NOPROGRESS, 0)
        _ = fresh_curl_set_pointer(curl, CURLOPT_XFERINFODATA, context.toOpaque())
        _ = fresh_curl_set_progress_callback(curl) { context, _, _, _, _ in
            let sink = Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue()
            sink.doWhileWaiting()
            return sink.transfer.isCancelled ? 1 : 0
        }
        if let limit = request.maximumBodySize {
            // A Content-Length over the limit fails before the body is read.
            _ = fresh_curl_set_off(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        }
        _ = fresh_curl_set_pointer(curl, CURLOPT_WRITEDATA, context.toOpaque())
        _ = fresh_curl_set_write_callback(curl) { data, size, count, context in
            let sink = Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue()
            if let limit = sink.transfer.request.maximumBodySize, sink.body.count + size * count > limit {
                sink.exceededLimit = true
                return 0 // libcurl stops the transfer with CURLE_WRITE_ERROR
            }
            // Room for a typical page at once, rather than doubling from libcurl's first 16 KiB.
            if sink.body.isEmpty { sink.body.reserveCapacity(ResponseSink.initialBodyCapacity) }
            sink.body.append(UnsafeRawPointer(data!).assumingMemoryBound(to: UInt8.self), count: size * count)
            return size * count
        }
        _ = fresh_curl_set_pointer(curl, CURLOPT_HEADERDATA, context.toOpaque())
        _ = fresh_curl_set_header_callback(curl) { data, size, count, context in
            let sink = Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue()
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
            sink.receiveHeaderLine(line)
            return size * count
        }

        switch request.method {
        case .get: break
        case .head: _ = fresh_curl_set_long(curl, CURLOPT_NOBODY, 1)
        default: _ = fresh_curl_set_string(curl, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
        if let body = request.body {
            _ = fresh_curl_set_off(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            body.withUnsafeBytes { bytes in
                _ = fresh_curl_set_pointer(curl, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            }
            if request.method == .get || request.method == .head {
                _ = fresh_curl_set_string(curl, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
            }
        }
        headerList = fresh_curl_slist_append(headerList, "Expect:")
        for field in request.headerFields {
            headerList = fresh_curl_slist_append(headerList, "\(field.name.rawName): \(field.value)")
        }
        _ = fresh_curl_set_headers(curl, headerList)

        let code = fresh_curl_easy_perform(curl)
        guard code == CURLE_OK else {
            var requestBytes = 0
            _ = fresh_curl_get_long(curl, CURLINFO_REQUEST_SIZE, &requestBytes)
            throw error(for: code, curl: curl, sink: sink, requestSent: requestBytes > 0)
        }
        var status = 0
        _ = fresh_curl_get_long(curl, CURLINFO_RESPONSE_CODE, &status)
        guard (100...999).contains(status) else { throw TransportError.invalidResponse("no status line") }
        var wireBytes: curl_off_t = 0
        _ = fresh_curl_get_off(curl, CURLINFO_SIZE_DOWNLOAD_T, &wireBytes)
        let fields = decodes && request.method != .head
            ? DecodedRepresentation.fields(of: sink.headerFields) : sink.headerFields
        return TransportResponse(status: HTTPResponse.Status(code: status, reasonPhrase: sink.reasonPhrase),
                                 headerFields: fields, body: sink.body, wireByteCount: Int(wireBytes),
                                 version: sink.version)
    }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else { throw TransportError.invalidURL(request.url.absoluteString) }
    }

    private func error(for code: CURLcode, curl: UnsafeMutableRawPointer, sink: ResponseSink, requestSent: Bool) -> TransportError {
        // libcurl's own sentence for this transfer ("Received HTTP/0.9 when not allowed"), else
        // the generic one for the code.
        let detail = String(cString: sink.errorBuffer)
        let message = detail.isEmpty ? String(cString: fresh_curl_easy_strerror(code)) : detail
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL where requestSent:
            // The request went out, so what was not supported is the reply (HTTP/0.9, or no
            // HTTP at all); before sending it is the URL's scheme (or a libcurl without TLS).
            return .invalidResponse(message)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING:
            return .invalidResponse(message)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .invalidURL(request.url.absoluteString)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_PROXY, CURLE_SEND_ERROR:
            return .unreachable(message)
        case CURLE_OPERATION_TIMEDOUT:
            // Whichever limit struck (--max-time, the connect timeout, or 30 s without a byte),
            // the time it took is what the user waited.
            var elapsed: curl_off_t = 0
            _ = fresh_curl_get_off(curl, CURLINFO_TOTAL_TIME_T, &elapsed)
            return .timedOut(.microseconds(elapsed))
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        case CURLE_FILESIZE_EXCEEDED, CURLE_WRITE_ERROR where sink.exceededLimit:
            return .bodyTooLarge(limit: request.maximumBodySize ?? 0)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            return sink.receivedStatus ? .truncated("\(message) after \(sink.body.count) body bytes") : .unreachable(message)
        default:
            return .failed(message)
        }
    }
}

/// Collects what the callbacks deliver; touched only by the thread running the transfer.
private final class ResponseSink: @unchecked Sendable {
    /// The body's first allocation: a page of a hundred JSON objects decodes to about 50 KB.
    static let initialBodyCapacity = 64 * 1024
    let transfer: CurlTransfer
    let handle: UnsafeMutableRawPointer
    var body = Data()
    var ranWhileWaiting = false
    var headerFields = HTTPFields()
    var receivedStatus = false
    /// The body passed the request's maximum and the write callback refused it.
    var exceededLimit = false
    /// The status line's protocol version (`HTTP/1.1`, `HTTP/2`) and reason phrase.
    var version = ""
    var reasonPhrase = ""
    /// libcurl writes the message of a failed transfer here (`CURLOPT_ERRORBUFFER`).
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    init(transfer: CurlTransfer, handle: UnsafeMutableRawPointer) {
        self.transfer = transfer
        self.handle = handle
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    /// Runs the request's ``WhileWaiting`` work once the request has gone out: libcurl calls
    /// the progress function right after sending, before it waits for the answer, which the
    /// server needs time to prepare anyway.
    func doWhileWaiting() {
        guard !ranWhileWaiting, let work = transfer.request.whileWaiting else { return }
        var sent = 0
        _ = fresh_curl_get_long(handle, CURLINFO_REQUEST_SIZE, &sent)
        guard sent > 0 else { return }
        ranWhileWaiting = true
        work.run()
    }

    deinit {
        errorBuffer.deallocate()
    }

    /// Header lines arrive one at a time; a status line starts a new response (after a
    /// `100 Continue`, for example), so the fields collected so far are dropped.
    func receiveHeaderLine(_ rawLine: String) {
        let line = Self.trimmingWhitespace(rawLine[...])
        if line.hasPrefix("HTTP/") {
            headerFields = HTTPFields()
            receivedStatus = true
            // `HTTP/1.1 200 OK`; HTTP/2 has no reason phrase.
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            version = String(parts[0])
            reasonPhrase = parts.count > 2 ? String(parts[2]) : ""
            return
        }
        guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")),
              let name = HTTPField.Name(String(Self.trimmingWhitespace(line[..<colon]))) else { return }
        let value = Self.trimmingWhitespace(line[line.index(after: colon)...])
        headerFields.append(HTTPField(name: name, value: String(value)))
    }

    /// `text` without the spaces, tabs, CR and LF around it: a header line's ending and optional
    /// whitespace (RFC 9110 §5.6.3), found byte by byte. (Foundation's `trimmingCharacters`
    /// goes through UTF-16 and cost a tenth of a sync's CPU time.)
    static func trimmingWhitespace(_ text: Substring) -> Substring {
        let isWhitespace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = text.utf8.firstIndex(where: { !isWhitespace($0) }),
              let last = text.utf8.lastIndex(where: { !isWhitespace($0) }) else { return text[text.endIndex...] }
        return text[first...last]
    }
}

extension Duration {
    var milliseconds: Int {
        Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
    }
}
