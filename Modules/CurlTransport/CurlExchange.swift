import CCurl
import Foundation
import HTTPCache
import HTTPTypes

/// One request on one easy handle: every option set for it, then the response (or the error)
/// read back once libcurl is done with it, whoever ran the transfer: the calling thread
/// (`curl_easy_perform`) or a ``CurlMulti`` driving it beside others.
final class CurlExchange: @unchecked Sendable {
    let transfer: CurlTransfer
    let handle: CurlHandlePool.Handle
    private let sink: ResponseSink
    private let context: Unmanaged<ResponseSink>
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var isReleased = false

    init(transfer: CurlTransfer, handle: CurlHandlePool.Handle) throws {
        self.transfer = transfer
        self.handle = handle
        sink = ResponseSink(transfer: transfer)
        context = Unmanaged.passRetained(sink)
        do {
            try setOptions()
        } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    /// Lets go of what the handle points to, so it can serve another request.
    private func release() {
        guard !isReleased else { return }
        isReleased = true
        _ = fresh_curl_set_pointer(handle.raw, CURLOPT_ERRORBUFFER, nil)
        fresh_curl_slist_free_all(headerList)
        headerList = nil
        context.release()
    }

    private func setOptions() throws {
        let curl = handle.raw
        let request = transfer.request
        let url = request.url.absoluteString
        guard fresh_curl_set_string(curl, CURLOPT_URL, url) == CURLE_OK else { throw TransportError.invalidURL(url) }
        _ = fresh_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, sink.errorBuffer)
        _ = fresh_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = fresh_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        _ = fresh_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, transfer.connectTimeout.milliseconds)
        // A server that accepts the connection and then stalls: give up after 30 s without a byte.
        _ = fresh_curl_set_long(curl, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = fresh_curl_set_long(curl, CURLOPT_LOW_SPEED_TIME, 30)
        if let timeout = request.timeout { _ = fresh_curl_set_long(curl, CURLOPT_TIMEOUT_MS, max(1, timeout.milliseconds)) }
        _ = fresh_curl_set_string(curl, CURLOPT_USERAGENT, transfer.userAgent)
        if let proxy = transfer.proxy { _ = fresh_curl_set_string(curl, CURLOPT_PROXY, proxy) }
        // A CA file or directory instead of the system's, or no check at all (`-k`), as curl sets them.
        if let file = request.trust.caFile { _ = fresh_curl_set_string(curl, CURLOPT_CAINFO, file) }
        if let directory = request.trust.caDirectory { _ = fresh_curl_set_string(curl, CURLOPT_CAPATH, directory) }
        if !request.trust.verifies {
            _ = fresh_curl_set_long(curl, CURLOPT_SSL_VERIFYPEER, 0)
            _ = fresh_curl_set_long(curl, CURLOPT_SSL_VERIFYHOST, 0)
        }
        // Unless the caller asked for codings of its own, offer every one that can be decoded and
        // hand back the decoded representation: decoded here once whole, or by libcurl ("" = every
        // coding it decodes) as the body arrives.
        if decodesWhole, let offered = ContentDecoder.offered {
            _ = fresh_curl_set_string(curl, CURLOPT_ACCEPT_ENCODING, offered)
            _ = fresh_curl_set_long(curl, CURLOPT_HTTP_CONTENT_DECODING, 0)
        } else if sink.decodes {
            _ = fresh_curl_set_string(curl, CURLOPT_ACCEPT_ENCODING, "")
        }
        // The progress function only answers whether the caller cancelled the transfer.
        _ = fresh_curl_set_long(curl, CURLOPT_NOPROGRESS, 0)
        _ = fresh_curl_set_pointer(curl, CURLOPT_XFERINFODATA, context.toOpaque())
        _ = fresh_curl_set_progress_callback(curl) { context, _, _, _, _ in
            Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue().transfer.isCancelled ? 1 : 0
        }
        if let limit = request.maximumBodySize {
            // A Content-Length over the limit fails before the body is read.
            _ = fresh_curl_set_off(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        }
        _ = fresh_curl_set_pointer(curl, CURLOPT_WRITEDATA, context.toOpaque())
        _ = fresh_curl_set_write_callback(curl) { data, size, count, context in
            let sink = Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue()
            return sink.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        }
        _ = fresh_curl_set_pointer(curl, CURLOPT_HEADERDATA, context.toOpaque())
        _ = fresh_curl_set_header_callback(curl) { data, size, count, context in
            let sink = Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue()
            sink.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
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
    }

    /// The response, or why there is none, once libcurl finished with `code`; frees the handle.
    func finish(_ code: CURLcode) -> Result<TransportResponse, TransportError> {
        defer { release() }
        let curl = handle.raw
        var status = 0
        _ = fresh_curl_get_long(curl, CURLINFO_RESPONSE_CODE, &status)
        guard code == CURLE_OK else {
            if code == CURLE_BAD_CONTENT_ENCODING, sink.receivedStatus, Self.bodyIsOnlyAMessage(status) {
                return .success(response(status: status, body: Data()))
            }
            var requestBytes = 0
            _ = fresh_curl_get_long(curl, CURLINFO_REQUEST_SIZE, &requestBytes)
            return .failure(error(for: code, requestSent: requestBytes > 0))
        }
        guard (100...999).contains(status) else { return .failure(.invalidResponse("no status line")) }
        var body = sink.body
        if decodesWhole && transfer.request.method != .head {
            do {
                body = try ContentDecoder.decode(body, contentEncoding: sink.headerFields[values: .contentEncoding],
                                                 limit: transfer.request.maximumBodySize)
            } catch {
                guard Self.bodyIsOnlyAMessage(status) else { return .failure(error) }
                body = Data()
            }
        }
        return .success(response(status: status, body: body))
    }

    /// Whether a response with `status` is what it says without its body: anything but a success,
    /// whose body is the data asked for. A 429 or 503 whose compressed body cannot be decoded is
    /// still answered, with no body: its `Retry-After` says when the server takes the next request,
    /// and fresh must not send sooner.
    private static func bodyIsOnlyAMessage(_ status: Int) -> Bool { (300...999).contains(status) }

    /// The response with `body` (decoded), its fields as the decoded representation's.
    private func response(status: Int, body: Data) -> TransportResponse {
        var wireBytes: curl_off_t = 0
        _ = fresh_curl_get_off(handle.raw, CURLINFO_SIZE_DOWNLOAD_T, &wireBytes)
        let fields = sink.decodes && transfer.request.method != .head
            ? DecodedRepresentation.fields(of: sink.headerFields) : sink.headerFields
        return TransportResponse(status: HTTPResponse.Status(code: status, reasonPhrase: sink.reasonPhrase),
                                 headerFields: fields, body: body, wireByteCount: Int(wireBytes), version: sink.version)
    }

    /// Whether the body is decoded here once whole, not by libcurl as it arrives: the request left
    /// the coding to the transport, which decodes whole, and libdeflate loads.
    private var decodesWhole: Bool { sink.decodes && transfer.decoding == .whole && ContentDecoder.offered != nil }

    /// `CURLE_TOO_LARGE`, which libcurl 8.6 added (the headers of Debian 12's 7.88 lack it; the
    /// library is loaded at run time, so a newer one may answer with it).
    private static let tooLarge = CURLcode(rawValue: 100)

    private func error(for code: CURLcode, requestSent: Bool) -> TransportError {
        // libcurl's sentence for this transfer ("Received HTTP/0.9 when not allowed"), else the code's.
        let detail = String(cString: sink.errorBuffer)
        let message = detail.isEmpty ? String(cString: fresh_curl_easy_strerror(code)) : detail
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL where requestSent:
            // The request went out, so what was not supported is the reply (HTTP/0.9, or no
            // HTTP at all); before sending it is the URL's scheme (or a libcurl without TLS).
            return .invalidResponse(message)
        case CURLE_WEIRD_SERVER_REPLY: return .invalidResponse(message)
        // libcurl refuses a header past its limit (100 KB), 7.88 as "out of memory", 8.6 and later
        // as CURLE_TOO_LARGE: the same reply comes back when asked again, so no failure to retry.
        case CURLE_OUT_OF_MEMORY where sink.receivedStatus, Self.tooLarge where sink.receivedStatus:
            return .invalidResponse("a header larger than libcurl takes (100 KB)")
        // A body its coding cannot decode was most likely cut short on the way: asked again, as one.
        case CURLE_BAD_CONTENT_ENCODING: return .truncated("the body cannot be decoded (damaged or cut short): \(message)")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: return .invalidURL(transfer.request.url.absoluteString)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_PROXY, CURLE_SEND_ERROR:
            return .unreachable(message)
        case CURLE_OPERATION_TIMEDOUT:
            // Whichever limit struck (--max-time, the connect timeout, or 30 s without a byte),
            // the time it took is what the user waited.
            var elapsed: curl_off_t = 0
            _ = fresh_curl_get_off(handle.raw, CURLINFO_TOTAL_TIME_T, &elapsed)
            return .timedOut(.microseconds(elapsed))
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .certificate(message)
        case CURLE_FILESIZE_EXCEEDED, CURLE_WRITE_ERROR where sink.exceededLimit:
            return .bodyTooLarge(limit: transfer.request.maximumBodySize ?? 0)
        // The server took the connection and closed it without a byte: reached, and no answer.
        case CURLE_GOT_NOTHING where !sink.receivedStatus:
            return .truncated("the server closed the connection without a reply")
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            return sink.receivedStatus ? .truncated("response cut short: \(message) after \(sink.body.count) body bytes") : .unreachable(message)
        default: return .failed(message)
        }
    }
}
