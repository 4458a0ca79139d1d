import Foundation

/// `--tls`: a certificate made for this run, signed by itself, for `127.0.0.1`, `::1` and
/// `localhost`; its file is the CA a client trusts to reach the server (`curl --cacert FILE`).
/// Made by the `openssl` command, so the server links nothing more than the TLS it serves with.
struct SelfSignedCertificate: Sendable {
    /// The certificate (PEM): what a client passes as its CA file.
    let certificatePath: String
    /// Its private key (PEM).
    let keyPath: String

    /// Makes a certificate and key in `directory` (created when missing), replacing any there.
    /// - Throws: ``MockServerError/cannotMakeCertificate(_:)`` when `openssl` fails or is missing.
    static func make(in directory: String) throws -> SelfSignedCertificate {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw MockServerError.cannotMakeCertificate("cannot create \(directory): \(error.localizedDescription)")
        }
        let certificate = SelfSignedCertificate(certificatePath: directory + "/ca.pem", keyPath: directory + "/key.pem")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", certificate.keyPath, "-out", certificate.certificatePath, "-days", "30",
            "-subj", "/CN=fresh-mock", "-addext", "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost",
            "-addext", "basicConstraints=critical,CA:TRUE",
        ]
        let errors = Pipe()
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = errors
        do {
            try openssl.run()
        } catch {
            throw MockServerError.cannotMakeCertificate("cannot run openssl (install Debian's openssl package): \(error.localizedDescription)")
        }
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else {
            let line = said.split(whereSeparator: \.isNewline).last.map(String.init) ?? "exit \(openssl.terminationStatus)"
            throw MockServerError.cannotMakeCertificate("openssl: \(line)")
        }
        return certificate
    }

    /// A directory of its own under the system's temporary directory, for a run without `--tls-dir`.
    static func temporaryDirectory() -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/fresh-mock-tls.XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress, let made = mkdtemp(start) else { return base + "/fresh-mock-tls" }
            return String(cString: made)
        }
    }
}
