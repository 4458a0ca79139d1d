import Hummingbird

// MARK: - MockRequestContext

/// The per-request context: Hummingbird's core context plus the address the connection reached,
/// which absolute `Link` URLs fall back to when a client sends no `Host`.
struct MockRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// `host:port` of the local end of the connection.
    let localAuthority: String?

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.localAuthority = source.channel.localAddress.flatMap { address in
            guard let ip = address.ipAddress, let port = address.port else { return nil }
            return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
        }
    }
}
