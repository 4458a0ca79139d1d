import ArgumentParser
import Composition
import CurlTransport
import Foundation
import HTTPCache
import NamedSources
import SyncEngine

/// How requests reach servers, as curl's options say it, shared by `get` and `sync`: the
/// `User-Agent`, the connect timeout, a proxy, and which certificates are trusted.
struct NetworkOptions: ParsableArguments {
    @Option(name: [.customShort("A"), .customLong("user-agent")], help: ArgumentHelp("The User-Agent sent (default: fresh/VERSION).", valueName: "name"))
    var userAgent: String?
    @Option(name: .customLong("connect-timeout"), parsing: .unconditional,
            help: ArgumentHelp("Give up connecting after this many seconds (default 10).", valueName: "seconds"))
    var connectTimeout: Double?
    @Option(name: [.customShort("x"), .customLong("proxy")], help: ArgumentHelp(
        "Send every request through this proxy, [scheme://]host[:port] (default: http_proxy, https_proxy, all_proxy and no_proxy, as curl reads them).",
        valueName: "url"))
    var proxy: String?

    @Option(name: .customLong("cacert"), help: ArgumentHelp(
        "Trust the certificates in this PEM file instead of the system's (a private CA; default: CURL_CA_BUNDLE, else SSL_CERT_FILE).",
        valueName: "file"))
    var caFile: String?
    @Option(name: .customLong("capath"), help: ArgumentHelp("Trust the certificates in this directory (hashed, as c_rehash makes it; default: SSL_CERT_DIR).", valueName: "dir"))
    var caDirectory: String?
    @Flag(name: [.customShort("k"), .customLong("insecure")], help: "Do not check the server's certificate or name (a warning says so): anyone on the way can read and change what is sent.")
    var insecure = false

    @Flag(name: .customLong("compressed"), help: "Accepted for curl's sake: fresh always asks for compression and decodes it.")
    var compressed = false

    func validate() throws {
        if let connectTimeout, !(connectTimeout.isFinite && connectTimeout > 0 && connectTimeout <= TimeLimit.maximumSeconds) {
            throw ValidationError("--connect-timeout must be a number of seconds above 0, at most \(Int(TimeLimit.maximumSeconds))")
        }
        if proxy?.isEmpty == true { throw ValidationError("--proxy is empty: give [scheme://]host[:port]") }
        for (flag, path, directory) in [("--cacert", caFile, false), ("--capath", caDirectory, true)] {
            guard let path else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue == directory,
                  FileManager.default.isReadableFile(atPath: path) else {
                throw ValidationError("\(flag) \(path): no readable \(directory ? "directory" : "file") there")
            }
        }
    }

    /// The libcurl transport these options describe.
    var transport: CurlTransport {
        CurlTransport(connectTimeout: connectTimeout.map { .milliseconds(Int($0 * 1000)) } ?? .seconds(10),
                      userAgent: FreshServices.userAgent, proxy: proxy)
    }

    /// The certificates trusted: the flags', else the environment's as curl reads it
    /// (``TLSTrust/flags(caFile:caDirectory:insecure:over:)``).
    func trust() -> TLSTrust { TLSTrust.flags(caFile: caFile, caDirectory: caDirectory, insecure: insecure) }

    /// The line `-k` (or a source's `insecure`) is said with, once, before any request.
    static let insecureWarning = "fresh: warning: certificates are not checked (--insecure): anyone on the way can read and change what is received"
}
