import COpenSSL

/// The server side of `--tls`: an OpenSSL context holding the certificate and its key, from
/// which each connection's session is made (``TLSServerHandler``). OpenSSL is the library
/// libcurl uses too, so the mock links no TLS library of its own.
final class TLSContext: @unchecked Sendable {  // an SSL_CTX is safe to share once set up
    let context: OpaquePointer

    /// Loads the certificate chain and the private key (PEM files).
    /// - Throws: ``MockServerError/cannotMakeCertificate(_:)`` with OpenSSL's reason.
    init(certificate: SelfSignedCertificate) throws {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw Self.failure("cannot make a TLS context") }
        self.context = context
        guard SSL_CTX_use_certificate_chain_file(context, certificate.certificatePath) == 1,
              SSL_CTX_use_PrivateKey_file(context, certificate.keyPath, SSL_FILETYPE_PEM) == 1 else {
            throw Self.failure("cannot load \(certificate.certificatePath)")
        }
    }

    deinit { SSL_CTX_free(context) }

    /// The error of the last OpenSSL call that failed, after `what`.
    static func failure(_ what: String) -> MockServerError {
        .cannotMakeCertificate("\(what): \(lastError())")
    }

    /// OpenSSL's queue of errors, the earliest first, as one line (emptied).
    static func lastError() -> String {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var text = [UInt8](repeating: 0, count: 256)
            text.withUnsafeMutableBufferPointer { room in
                room.withMemoryRebound(to: CChar.self) { ERR_error_string_n(code, $0.baseAddress, $0.count) }
            }
            reasons.append(String(decoding: text.prefix { $0 != 0 }, as: UTF8.self))
        }
        return reasons.isEmpty ? "no reason given" : reasons.joined(separator: "; ")
    }
}
