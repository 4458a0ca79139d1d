import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
import UnixSignals

/// A mock server listening on a real socket, for tests and for the `fresh-mock` command.
///
/// ```swift
/// let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 30))
/// defer { Task { await server.stop() } }   // or call stop() at the end of the test
/// // talk to server.baseURL, e.g. "http://127.0.0.1:43127"
/// ```
public final class RunningMockServer: Sendable {
    /// `http://HOST:PORT` (`https://` with `--tls`) without a trailing slash.
    public let baseURL: String
    /// The port actually bound (the OS's choice when the configuration said 0).
    public let port: Int
    /// With `--tls`: the certificate file a client trusts to reach the server (its CA file).
    public let certificatePath: String?
    /// A temporary directory the certificate was made in, removed when the server stops.
    private let temporaryDirectory: String?

    private let serviceGroup: ServiceGroup
    private let runTask: Task<Void, any Error>
    private let log: RequestLog
    private let accessLog: AccessLog?

    private init(
        baseURL: String, port: Int, certificate: SelfSignedCertificate?, temporaryDirectory: String?, serviceGroup: ServiceGroup,
        runTask: Task<Void, any Error>, log: RequestLog, accessLog: AccessLog?
    ) {
        self.baseURL = baseURL
        self.port = port
        self.certificatePath = certificate?.certificatePath
        self.temporaryDirectory = temporaryDirectory
        self.serviceGroup = serviceGroup
        self.runTask = runTask
        self.log = log
        self.accessLog = accessLog
    }

    // MARK: Lifecycle

    /// Starts a server and returns once it accepts connections; it also shuts down gracefully on
    /// `shutdownSignals` (the command uses SIGINT, SIGTERM).
    /// - Throws: ``DataFileError`` when the `--data` file cannot be served, ``MockServerError``
    ///   when a fault names an unknown route, `--mirror` an unknown collection, or the address
    ///   cannot be bound; the store's error when the mirror cannot be read.
    public static func start(
        _ configuration: MockServerConfiguration, shutdownSignals: [UnixSignal] = []
    ) async throws -> RunningMockServer {
        var logger = Logger(label: "fresh-mock")
        logger.logLevel = .critical  // failures reach the caller as errors; the request log says the rest
        let validators = Validators(configuration: configuration)
        var replay: MirrorReplay?
        if let mirror = configuration.mirror { replay = try await MirrorReplay(source: mirror, validators: validators) }
        let data = replay == nil ? try configuration.loadData() : MockData(collections: [], seed: configuration.seed)
        let routes = replay.map { RouteTable(mirroredPaths: $0.collectionPaths) }
            ?? RouteTable(seeded: configuration.dataFile == nil, collectionNames: Array(data.collections.keys))
        for rule in configuration.faults {
            if let problem = routes.problem(withFaultRoute: rule.route) { throw MockServerError.unknownFaultRoute(problem) }
        }
        let temporaryDirectory = configuration.tlsDirectory?.isEmpty == true ? SelfSignedCertificate.temporaryDirectory() : nil
        let certificate = try configuration.tlsDirectory.map { try SelfSignedCertificate.make(in: temporaryDirectory ?? $0) }
        let accessLog = AccessLog(configuration.accessLog)
        let responder = MockResponder(configuration: configuration, data: data, routes: routes, replay: replay, validators: validators,
                                      accessLog: accessLog)
        let (boundPorts, portContinuation) = AsyncStream<Int>.makeStream()
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ParseErrorResponder(), HTTP1Strictness.Installer()],
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: ParseErrorResponder.headerLimit, maxHeaderListSize: ParseErrorResponder.headerLimit))
        let server = try certificate.map { HTTPServerBuilder.http1(configuration: http1, tls: try TLSContext(certificate: $0)) }
            ?? .http1(configuration: http1)
        let application = Application(
            responder: responder,
            server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "fresh-mock"
            ),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? configuration.port)
                portContinuation.finish()
            },
            logger: logger
        )
        let serviceGroup = ServiceGroup(
            services: [application], gracefulShutdownSignals: shutdownSignals, cancellationSignals: [], logger: logger
        )
        let runTask = Task {
            defer { portContinuation.finish() }
            try await serviceGroup.run()
        }
        var ports = boundPorts.makeAsyncIterator()
        guard let port = await ports.next() else {
            accessLog?.close()
            if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) }
            do { try await runTask.value } catch {
                throw MockServerError.binding(error, host: configuration.host, port: configuration.port)
            }
            throw MockServerError.stoppedBeforeListening
        }
        let host = ["0.0.0.0", "::", ""].contains(configuration.host) ? "127.0.0.1" : configuration.host
        let authority = host.contains(":") ? "[\(host)]" : host
        return RunningMockServer(
            baseURL: "\(certificate == nil ? "http" : "https")://\(authority):\(port)", port: port, certificate: certificate,
            temporaryDirectory: temporaryDirectory, serviceGroup: serviceGroup, runTask: runTask, log: responder.log,
            accessLog: accessLog
        )
    }

    /// Stops accepting connections, lets in-flight requests finish, and returns once the server is down.
    public func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = try? await runTask.value
        cleanUp()
    }

    /// Waits until the server stops (after ``stop()`` or a shutdown signal), its request log written.
    /// - Throws: the error that brought the server down, if it did not stop cleanly.
    public func waitUntilStopped() async throws {
        defer { cleanUp() }
        try await runTask.value
    }

    /// Writes the rest of the request log and removes the temporary certificate directory.
    private func cleanUp() {
        accessLog?.close()
        if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) }
    }

    // MARK: Inspection

    /// The same counts `GET /_admin/stats` reports, without making a request.
    public var statistics: MockServerStatistics {
        log.statistics
    }
}
