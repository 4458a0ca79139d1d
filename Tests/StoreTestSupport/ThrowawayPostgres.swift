import Foundation
import PostgresStore
import StoreAddress
import Synchronization

/// A PostgreSQL cluster of the tests' own, started once per test process: `initdb` in a
/// temporary directory, the server on a Unix socket there only (no TCP port), stopped by its
/// PID when the process exits. `initdb` refuses to run as root, so as root (CI) the cluster
/// runs as Debian's `postgres` user. Each test gets a database of its own (``newDatabase()``).
///
/// A test process that crashes cannot stop its clusters: each directory names the process that
/// made it (``ownerFile``), and the next start stops and removes the clusters whose process is
/// gone (``sweepAbandoned(in:)``).
public final class ThrowawayPostgres: Sendable {
    public let directory: String
    public let pid: Int32
    private let databases = Mutex(0)

    /// The cluster of this test process, started on first use.
    public static let shared: Result<ThrowawayPostgres, ClusterError> = Result { () throws(ClusterError) in try start() }

    public struct ClusterError: Error, CustomStringConvertible {
        public var description: String
    }

    /// A new, empty database, as a connection URI's address.
    public func newDatabase() throws -> PostgresAddress {
        let name = databases.withLock { count in
            count += 1
            return "test_\(count)"
        }
        try Self.run(Self.binary("psql"), ["-X", "-q", "-h", directory, "-U", "fresh", "-d", "postgres", "-c", "CREATE DATABASE \(name)"])
        return try address(of: name)
    }

    public func address(of database: String, user: String = "fresh") throws -> PostgresAddress {
        try PostgresAddress(parsing: "postgresql://\(user)@\(directory.replacingOccurrences(of: "/", with: "%2F"))/\(database)", environment: [:])
    }

    /// Runs one statement as the superuser; returns its rows, `|` between columns.
    @discardableResult
    public func sql(_ statement: String, database: String = "postgres") throws -> String {
        try Self.run(Self.binary("psql"), ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory, "-U", "fresh", "-d", database,
                                           "-c", statement])
    }

    /// A psql session of its own, kept open: statements sent to it run in one session (a
    /// transaction that holds a lock while a test goes on).
    public func session(database: String) throws -> Session {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binary("psql"))
        process.arguments = ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory, "-U", "fresh", "-d", database]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return Session(process: process, input: input.fileHandleForWriting, output: output.fileHandleForReading)
    }

    /// An open psql session.
    public final class Session {
        private let process: Process
        private let input: FileHandle
        private let output: FileHandle

        init(process: Process, input: FileHandle, output: FileHandle) {
            self.process = process
            self.input = input
            self.output = output
        }

        /// Runs `statements` and returns once psql has run them (it echoes a marker after them).
        public func run(_ statements: String) throws {
            input.write(Data("\(statements)\n\\echo done\n".utf8))
            var seen = ""
            while !seen.contains("done\n") {
                let chunk = output.availableData
                guard !chunk.isEmpty else { throw ClusterError(description: "psql ended") }
                seen += String(decoding: chunk, as: UTF8.self)
            }
        }

        public func close() {
            try? input.close()
            process.waitUntilExit()
        }
    }

    private init(directory: String, pid: Int32) {
        self.directory = directory
        self.pid = pid
    }

    private static func start() throws(ClusterError) -> ThrowawayPostgres {
        do {
            sweepAbandoned()
            let cluster = try ofItsOwn()
            stopAtExit = (cluster.pid, cluster.directory)
            atexit {
                guard let (pid, directory) = ThrowawayPostgres.stopAtExit else { return }
                ThrowawayPostgres.stop(pid: pid, directory: directory) // immediate shutdown: the data is thrown away
            }
            return cluster
        } catch let error as ClusterError {
            throw error
        } catch {
            throw ClusterError(description: "\(error)")
        }
    }

    nonisolated(unsafe) private static var stopAtExit: (Int32, String)?

    /// A cluster for one test, on a Unix socket only, which ``stop()`` ends.
    public static func ofItsOwn() throws -> ThrowawayPostgres {
        let directory = try newDirectory()
        try initialize(directory)
        return try startServer(in: directory, options: "-c listen_addresses=")
    }

    /// A cluster for one test, which ``stop()`` ends: also on `127.0.0.1` at `port`, and there
    /// only over TLS (`hostssl` in `pg_hba.conf`), its certificate for `localhost` signed by an
    /// authority of its own, whose certificate is `authority`.
    public static func servingTLS() throws -> (cluster: ThrowawayPostgres, port: Int, authority: String) {
        let directory = try newDirectory()
        try initialize(directory)
        let authority = try makeCertificates(in: directory)
        try "local all all trust\nhostssl all all 127.0.0.1/32 trust\n".write(toFile: directory + "/data/pg_hba.conf", atomically: false, encoding: .utf8)
        // The port is asked of the system and given to the server, which cannot be told port 0;
        // another process may take it in between, so a refused start tries another.
        var failure: (any Error)?
        for _ in 0..<3 {
            let port = try freePort()
            do {
                let cluster = try startServer(in: directory, options: """
                    -c listen_addresses=127.0.0.1 -c port=\(port) -c ssl=on -c ssl_cert_file=\(directory)/server.crt \
                    -c ssl_key_file=\(directory)/server.key
                    """)
                return (cluster, port, authority)
            } catch {
                failure = error
            }
        }
        throw failure ?? ClusterError(description: "the server did not start")
    }

    /// Stops the server (an immediate shutdown: the data is thrown away) and removes its directory.
    public func stop() {
        Self.stop(pid: pid, directory: directory)
    }

    /// Stops the server, if `pid` is still the cluster's (its PID is not signalled once the
    /// server ended, as a sweep may have stopped it), and removes the directory.
    private static func stop(pid: Int32, directory: String) {
        if serves(directory, pid) {
            kill(pid, SIGQUIT)
            while kill(pid, 0) == 0 { usleep(10_000) }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What the clusters' directories are called: `/tmp/fresh-pg-` and eight characters.
    static let directoryPrefix = "fresh-pg-"
    /// The file in a cluster's directory that holds the PID of the test process that made it.
    public static let ownerFile = "owner.pid"

    /// A directory the server's user owns: in /tmp itself, as that user must reach it, and a
    /// socket path has at most 107 bytes. It names this process as its owner.
    private static func newDirectory() throws -> String {
        let directory = "/tmp/" + directoryPrefix + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "\(getpid())\n".write(toFile: directory + "/" + ownerFile, atomically: false, encoding: .utf8)
        if geteuid() == 0 { try run("/bin/chown", ["postgres", directory]) }
        chmod(directory, 0o700)
        return directory
    }

    /// Stops the servers of the clusters in `parent` whose owner process has ended (it crashed,
    /// or was killed, before its exit handler ran) and removes their directories. A directory
    /// without an owner file (another program's, or one being made) is left alone, as is one
    /// whose owner still runs.
    public static func sweepAbandoned(in parent: String = "/tmp") {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        for name in names where name.hasPrefix(directoryPrefix) {
            let directory = parent + "/" + name
            guard let owner = pid(in: directory + "/" + ownerFile), kill(owner, 0) != 0, errno == ESRCH else { continue }
            stop(pid: pid(in: directory + "/data/postmaster.pid") ?? 0, directory: directory)
        }
    }

    /// Whether process `pid` is the server of the cluster in `directory` (its command line names
    /// the data directory), and not a process that took a dead server's PID.
    private static func serves(_ directory: String, _ pid: Int32) -> Bool {
        guard let commandLine = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        return commandLine.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == directory + "/data" }
    }

    /// The PID on the first line of a file (an owner file, `postmaster.pid`), if it holds one.
    private static func pid(in file: String) -> Int32? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first.flatMap { Int32($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    private static func initialize(_ directory: String) throws {
        try runAsOwner(binary("initdb"), ["-D", directory + "/data", "-A", "trust", "-U", "fresh", "--no-sync", "-E", "UTF8"])
    }

    private static func startServer(in directory: String, options: String) throws -> ThrowawayPostgres {
        try runAsOwner(binary("pg_ctl"), ["-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60",
                                          "-o", "-k \(directory) -c fsync=off -c full_page_writes=off \(options)", "start"])
        guard let pid = pid(in: directory + "/data/postmaster.pid") else {
            throw ClusterError(description: "no PID in postmaster.pid")
        }
        return ThrowawayPostgres(directory: directory, pid: pid)
    }

    /// An authority and a server certificate for `localhost` signed by it (openssl, from `make
    /// setup`), the key readable by the server's user only; returns the authority's certificate.
    private static func makeCertificates(in directory: String) throws -> String {
        let openssl = "/usr/bin/openssl"
        let (ca, server) = (directory + "/ca", directory + "/server")
        try run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Fresh test authority",
                          "-keyout", ca + ".key", "-out", ca + ".crt"])
        try run(openssl, ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", server + ".key", "-out", server + ".csr"])
        try "subjectAltName=DNS:localhost\n".write(toFile: directory + "/names.ext", atomically: false, encoding: .utf8)
        try run(openssl, ["x509", "-req", "-days", "2", "-in", server + ".csr", "-CA", ca + ".crt", "-CAkey", ca + ".key",
                          "-CAcreateserial", "-extfile", directory + "/names.ext", "-out", server + ".crt"])
        if geteuid() == 0 { try run("/bin/chown", ["postgres", server + ".key", server + ".crt"]) }
        chmod(server + ".key", 0o600)
        return ca + ".crt"
    }

    /// A TCP port on 127.0.0.1 that no one listens on now (the system's choice for port 0).
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ClusterError(description: "cannot make a socket") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw ClusterError(description: "cannot bind a socket") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A program of the newest PostgreSQL installed (Debian's `postgresql` package, from `make setup`).
    static func binary(_ name: String) throws(ClusterError) -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        guard let newest = versions.last else {
            throw ClusterError(description: "PostgreSQL is not installed (\(root) is empty): run make setup")
        }
        return "\(root)/\(newest)/bin/\(name)"
    }

    private static func runAsOwner(_ program: String, _ arguments: [String]) throws {
        if geteuid() == 0 { try run("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments) } else { try run(program, arguments) }
    }

    /// Runs a program and waits for it (`posix_spawn` and `waitpid`: Foundation's `Process`
    /// missed the exit of `runuser … pg_ctl start` here), its output in a file, shown if it fails.
    @discardableResult
    private static func run(_ program: String, _ arguments: [String]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "fresh-pg-output-" + UUID().uuidString
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else { throw ClusterError(description: "cannot run \(program): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else { throw ClusterError(description: "\(program) \(arguments.joined(separator: " ")) failed: \(text)") }
        return text
    }
}
