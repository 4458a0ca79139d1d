import Foundation
import HTTPCache

extension TLSTrust {
    /// The trust curl's environment variables give (the CA file `CURL_CA_BUNDLE`, else `SSL_CERT_FILE`;
    /// the directory `SSL_CERT_DIR`), under `caFile` and `caDirectory` when given (`--cacert`, a
    /// source's `cacert`); `verifies` is false for `-k` or a source's `insecure`.
    public static func resolved(caFile: String?, caDirectory: String?, verifies: Bool,
                                environment: [String: String] = ProcessInfo.processInfo.environment) -> TLSTrust {
        let set = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        return TLSTrust(caFile: caFile ?? set("CURL_CA_BUNDLE") ?? set("SSL_CERT_FILE"), caDirectory: caDirectory ?? set("SSL_CERT_DIR"),
                        verifies: verifies)
    }

    /// The certificates `--cacert`, `--capath` and `-k` trust, over a source's (`given`, the
    /// environment's rule already applied); without one, over the environment's.
    public static func flags(caFile: String?, caDirectory: String?, insecure: Bool, over given: TLSTrust? = nil) -> TLSTrust {
        guard let given else { return resolved(caFile: caFile, caDirectory: caDirectory, verifies: !insecure) }
        return TLSTrust(caFile: caFile ?? given.caFile, caDirectory: caDirectory ?? given.caDirectory, verifies: !insecure && given.verifies)
    }
}
