import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core context plus the address the connection reached,
/// which absolute `Link` URLs fall back to when a client sends no `Host`.
struct MockRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The local end of the connection; formatted only when a request needs it (rarely: clients send `Host`).
    let localAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.localAddress = source.channel.localAddress
    }

    /// `host:port` of the local end of the connection.
    var localAuthority: String? {
        localAddress.flatMap { address in
            guard let ip = address.ipAddress, let port = address.port else { return nil }
            return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
        }
    }
}
