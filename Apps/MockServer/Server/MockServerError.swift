import Foundation
import NIOCore

/// Why a mock server could not start (a `--data` file that cannot be served is a ``DataFileError``).
public enum MockServerError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Another process listens on the port.
    case portInUse(host: String, port: Int)
    /// The host is not a name or address this machine has.
    case unknownHost(host: String)
    /// The host is an address, but not one of this machine's.
    case hostNotLocal(host: String)
    /// The port needs privileges this process lacks (below 1024).
    case portNotPermitted(host: String, port: Int)
    /// Binding failed for another reason.
    case cannotListen(host: String, port: Int, reason: String)
    /// A fault rule names a route the server does not have.
    case unknownFaultRoute(String)
    /// The service stopped without ever listening (and without reporting an error).
    case stoppedBeforeListening
    /// `--tls`: the certificate could not be made or loaded.
    case cannotMakeCertificate(String)
    /// `--mirror NAME`: the mirror holds no such collection.
    case noSuchCollection(String)
    /// `--mirror`: the store could not be opened or read.
    case cannotOpenMirror(String)

    /// One sentence for a log or the command line.
    public var description: String {
        switch self {
        case .portInUse(let host, let port): "port \(port) on \(host) is already in use (pick another with --port, or --port 0)"
        case .unknownHost(let host): "--host \(host): no such host name or address"
        case .hostNotLocal(let host): "--host \(host) is not an address of this machine"
        case .portNotPermitted(let host, let port): "not allowed to listen on port \(port) on \(host) (ports below 1024 need privileges)"
        case .cannotListen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        case .unknownFaultRoute(let problem): "--fault: \(problem)"
        case .stoppedBeforeListening: "the server stopped before it was listening"
        case .cannotMakeCertificate(let reason): "--tls: \(reason)"
        case .noSuchCollection(let problem): "--mirror: \(problem)"
        case .cannotOpenMirror(let reason): "--mirror: \(reason)"
        }
    }

    /// The error binding `host:port` failed with, as one of these cases.
    static func binding(_ error: any Error, host: String, port: Int) -> MockServerError {
        if let error = error as? MockServerError { return error }
        if error is SocketAddressError.UnknownHost { return .unknownHost(host: host) }
        if let error = error as? IOError {
            switch error.errnoCode {
            case EADDRINUSE: return .portInUse(host: host, port: port)
            case EADDRNOTAVAIL: return .hostNotLocal(host: host)
            case EACCES, EPERM: return .portNotPermitted(host: host, port: port)
            default: return .cannotListen(host: host, port: port, reason: String(cString: strerror(error.errnoCode)))
            }
        }
        return .cannotListen(host: host, port: port, reason: "\(error)")
    }
}
