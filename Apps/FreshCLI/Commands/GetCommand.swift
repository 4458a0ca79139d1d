import ArgumentParser
import Composition
import Foundation
import HTTPCache
import HTTPTypes
import SyncEngine
import SyncOrchestration
import TerminalText

/// `fresh get URL`: curl-like, through the persistent cache.
struct GetCommand: FreshSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        // `fresh get URL` is parsed without the rest of the tree (CommandLaunch's DirectEntry).
        _superCommandName: "fresh",
        abstract: "Send a request through the HTTP cache and print the body.",
        discussion: """
            A fresh stored response answers with no request; a stale one is revalidated with \
            If-None-Match / If-Modified-Since and a 304 returns the stored body. When the server \
            cannot be reached, a stored response is served with an offline notice on stderr \
            (unless it says must-revalidate or no-cache).

            Policies (--policy): protocol (default, RFC 9111), reload (ignore stored data), \
            reload-all (also send Cache-Control: no-cache), revalidate (always ask the server), \
            cache-else-load (stored data whatever its age, else download), cache-only (stored data \
            or exit 7; never the network; same as --offline).

            Like curl: redirects are followed only with -L (at most --max-redirs, 50); --fail \
            writes nothing on a status of 400 or above (exit 4 for 4xx, 8 for 5xx), \
            --fail-with-body writes the body and exits the same way; a URL without \
            a scheme is http. Compression is always asked for and decoded (the decoded body is \
            what is stored); -H 'Accept-Encoding: …' gets the exact bytes instead.

            On a terminal a JSON body is re-indented and coloured (NO_COLOR turns colours off), \
            other text has its control characters escaped, and a binary body (one with a NUL \
            byte) is not printed (exit 6); --raw or -o - prints the exact bytes there too. Pipes \
            and -o FILE get the exact bytes. Everything said on stderr (-v, notes) comes before the body.

            The cache is disposable: a damaged cache file is rebuilt, and when none can be used \
            the request still runs with a cache in memory (stored-data-only requests exit 6).

            Examples:
              fresh get -v 127.0.0.1:8080/posts
              fresh get -L -I http://127.0.0.1:8080/old-path
              fresh get -i -H 'Accept: application/json' http://127.0.0.1:8080/posts
              fresh get -X POST -d '{"title":"hi"}' http://127.0.0.1:8080/posts
              fresh get --cacert ca.pem https://127.0.0.1:8443/posts
              fresh get -H 'Authorization: Bearer ${TOKEN}' https://api.example.com/me

            Rate limits: every request waits its turn at its origin's gate, as a sync's do \
            (see 'fresh sync --help'); --retry also waits out a 429, a 503 or a 403 that \
            carries Retry-After or a spent X-RateLimit-Remaining, up to 120 s.

            TLS: --cacert FILE or --capath DIR trust a private CA (also CURL_CA_BUNDLE, \
            SSL_CERT_FILE, SSL_CERT_DIR); -k checks nothing and says so. A certificate that \
            cannot be trusted is exit 10, never retried.
            """
    )

    @Argument(help: ArgumentHelp("http or https URL; without a scheme, http is assumed (as curl does).", valueName: "url"), transform: ParsedURL.parse)
    var target: ParsedURL

    @Option(name: [.customShort("X"), .customLong("request")], help: ArgumentHelp("Request method (default GET, or POST with --data).", valueName: "method"))
    var method: String?
    @Option(name: [.customShort("H"), .customLong("header")],
            help: ArgumentHelp("Extra header 'Name: value' (repeatable; ${VAR} and $(command) in single quotes are expanded, as in a source).",
                               valueName: "header"))
    var headers: [String] = []
    @Option(name: [.customShort("d"), .customLong("data"), .customLong("data-binary")],
            help: ArgumentHelp("Request body, given once, sent as it is; @file reads it from a file, @- from standard input.", valueName: "data"))
    var bodies: [String] = []
    @Option(name: .customLong("data-raw"), help: ArgumentHelp("Request body, given once, with no @file reading (what browsers' \"Copy as cURL\" writes).", valueName: "data"))
    var rawBodies: [String] = []

    /// Where the request body comes from.
    enum BodySource: Equatable {
        case text(String)
        /// `@path` (`@-`: standard input).
        case file(String)
    }

    /// The one body (``validate()`` refuses more: curl joins several with `&` as a form, while
    /// fresh sends the body as it is, so a second one would be lost or mangled).
    var body: BodySource? {
        if let raw = rawBodies.first { return .text(raw) }
        guard let data = bodies.first else { return nil }
        return data.hasPrefix("@") ? .file(String(data.dropFirst())) : .text(data)
    }
    @Option(name: [.customShort("u"), .customLong("user")], help: ArgumentHelp("Basic authentication as user:password.", valueName: "user:password"))
    var user: String?

    @Flag(name: [.customShort("i"), .customLong("include")], help: "Print the status line and headers before the body.")
    var include = false
    @Flag(name: [.customShort("I"), .customLong("head")], help: "Send HEAD and print the status line and headers only.")
    var head = false
    @Flag(name: .customLong("json"), help: "Print status, headers, body and cache decision as one JSON object.")
    var json = false
    @Flag(name: .customLong("raw"), help: "Print the body's exact bytes on a terminal too (no JSON re-indenting, colours or escaping; as -o -).")
    var raw = false
    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Write the body to a file instead of stdout (`-` is stdout, as in curl).", valueName: "file"))
    var output: String?
    /// The file `-o` names; `nil` for stdout (no `-o`, or `-o -`).
    private var outputFile: String? { output == "-" ? nil : output }

    @Flag(name: [.customShort("L"), .customLong("location")], help: "Follow redirects (as curl, not followed without it).")
    var location = false
    @Option(name: .customLong("max-redirs"), parsing: .unconditional,
            help: ArgumentHelp("Redirects -L follows before failing with exit 5 (-1: no limit, as in curl).", valueName: "n"))
    var maxRedirects = 50

    @Option(help: ArgumentHelp("Cache policy: \(CachePolicy.allCases.map(\.shortName).joined(separator: ", ")).", valueName: "name"),
            transform: { name in
                guard let policy = CachePolicy(name: name) else { throw ValidationError("unknown policy '\(name)'") }
                return policy
            })
    var policy: CachePolicy = .useProtocolCachePolicy
    @Flag(help: "Use only stored data, never the network (the cache-only policy).")
    var offline = false

    @Flag(name: .shortAndLong, help: "Explain the cache decision on stderr (before the body).")
    var verbose = false
    @Flag(name: [.customShort("s"), .customLong("silent")], help: "No notes or error messages on stderr (the exit status still tells).")
    var silent = false
    @Flag(name: [.customShort("S"), .customLong("show-error")], help: "With -s, still print the error message when it fails.")
    var showError = false

    @Flag(name: [.customShort("f"), .customLong("fail")], help: "On a status of 400 or above write no body and exit 4 (4xx) or 8 (5xx).")
    var fail = false
    @Flag(name: .customLong("fail-with-body"), help: "On a status of 400 or above write the body as usual, then exit 4 (4xx) or 8 (5xx).")
    var failWithBody = false
    @Option(name: .customLong("retry"), parsing: .unconditional, help: ArgumentHelp("Retry up to n times on a timeout, a response cut short or a failed transfer, 408, 429, 5xx (not 501) or a 403 of a rate limit, waiting as the server asks (Retry-After, the stated reset), else 1 s, 2 s, 4 s…", valueName: "n"))
    var retries = 0
    @Option(name: [.customShort("m"), .customLong("max-time")], parsing: .unconditional, help: ArgumentHelp("Give up on the request after this many seconds (0: no limit).", valueName: "seconds"))
    var maxTime: Double?

    @OptionGroup var network: NetworkOptions
    @OptionGroup var storage: CacheOptions

    func validate() throws {
        try TimeLimit.validate(maxTime)
        if bodies.count + rawBodies.count > 1 {
            throw ValidationError("--data is given \(bodies.count + rawBodies.count) times: fresh sends one body as it is (curl would join them with &)")
        }
        if body == .file("") { throw ValidationError("--data @ needs a file name (or @- for standard input)") }
        if let method, HTTPRequest.Method(method.uppercased()) == nil { throw ValidationError("invalid method '\(method)'") }
        if json && (include || head) { throw ValidationError("--json cannot be combined with --include or --head") }
        if fail && failWithBody { throw ValidationError("--fail and --fail-with-body exclude each other (as in curl)") }
        if head && body != nil { throw ValidationError("--head cannot send --data") }
        if let user, !user.contains(":") { throw ValidationError("-u needs user:password") }
        if maxRedirects < -1 { throw ValidationError("--max-redirs must be 0 or more, or -1 for no limit") }
        if retries < 0 { throw ValidationError("--retry must be 0 or more") }
        for header in headers { _ = try HeaderArgument.parse(header) }
    }

    func execute() async throws {
        if silent { StandardError.silence.store(showError ? .notes : .everything, ordering: .relaxed) }
        let request = try makeRequest()
        if let outputFile { try ResponsePrinter.checkWritable(outputFile) }
        let storageLocation = storage.location
        let services = FreshServices(location: storageLocation, cacheCapacity: storage.cacheCapacity,
                                     openedCache: await EarlyCacheOpen.take(for: storageLocation, capacity: storage.cacheCapacity),
                                     transport: network.transport)
        let policy = offline ? .returnCacheDataDontLoad : policy
        // Stored data only: a cache file that cannot be read is the answer, not an empty cache.
        if CachingClient.answersFromStorageOnly(request, policy: policy), let failure = services.cacheFailure { throw failure }
        services.warnings.forEach { StandardError.note("fresh: warning: \($0)") }
        if !request.trust.verifies { StandardError.note(NetworkOptions.insecureWarning) }
        let exchange = RetryingExchange(client: services.client, gate: services.gate, policy: policy, retries: retries,
                                        maximumRedirects: location ? (maxRedirects == -1 ? .max : maxRedirects) : nil)
        try await services.finishing {
            let response = try await Interruption.cancellingOnSignal { try await exchange.send(request) }
            // Written before the cache settles: a stale-while-revalidate answer shows at once,
            // and its refresh goes on in the background until the process ends.
            try finish(response)
        }
    }

    /// Everything said on stderr comes before the body, so no note lands on the body's last line.
    private func finish(_ response: CachedResponse) throws {
        if verbose { explain(response) }
        if let notice = StaleNotice.line(for: response.decision) { StandardError.note("fresh: \(notice)") }
        if response.decision.outcome == .unsatisfiable {
            StandardError.write("fresh: \(response.decision.reasons.first ?? "no usable stored response") (504)")
            // No server answered this 504: the cache did, having nothing it may answer with. Without
            // the network (unreachable) that is 3; asked not to use it (only-if-cached), 7, as --offline.
            throw ExitCode(response.decision.isUnreachableWithoutUsableData ? 3 : 7)
        }
        let toTerminal = output == nil && !raw && StandardOutput.isTerminal
        var printer = ResponsePrinter(
            include: include, json: json, output: outputFile, toTerminal: toTerminal, headOnly: head,
            prettyJSON: raw || !toTerminal ? nil : JSONPrettyPrinter(colored: JSONPrettyPrinter.colorsWanted()))
        if fail && response.status.code >= 400 {
            // curl --fail writes no body: a script's `|| keep the old file` keeps its data. With
            // -i or -I on stdout the status line and headers still show, as curl shows them.
            if (include || head) && outputFile == nil {
                printer.headOnly = true
                try printer.print(response)
            }
            StandardError.write("fresh: the server answered \(response.status.code) (--fail)")
            throw ExitCode(Self.failureStatus(response))
        }
        guard failWithBody && response.status.code >= 400 else { return try printer.print(response) }
        // The body is written as usual; one that cannot be (binary, kept off a terminal) says
        // why, and the exit is still the status's, which is what a script asked to hear.
        do { try printer.print(response) } catch { StandardError.write("fresh: \(ErrorDescription.line(error))") }
        StandardError.write("fresh: the server answered \(response.status.code) (--fail-with-body)")
        throw ExitCode(Self.failureStatus(response))
    }

    /// The exit status of `--fail` and `--fail-with-body`: 4 for a 4xx, 8 for a 5xx.
    private static func failureStatus(_ response: CachedResponse) -> Int32 { response.status.code >= 500 ? 8 : 4 }

    /// `-v`, on stderr.
    private func explain(_ response: CachedResponse) {
        Self.verboseLines(response, head: head).forEach { StandardError.writeAlways("fresh: \($0)") }
    }

    /// What `-v` says: the status line and the cache decision of each hop (a redirect `-L`
    /// followed is cached by its own rules, so each hop says its own, after its URL), and the
    /// bytes that travelled.
    static func verboseLines(_ response: CachedResponse, head: Bool) -> [String] {
        var lines: [String] = []
        for hop in response.redirects + [response] {
            if !response.redirects.isEmpty { lines.append("request to \(hop.url.absoluteString)") }
            lines.append(StatusLine.text(of: hop))
            lines += hop.decision.explanation
        }
        let decision = response.decision
        let fromNetwork = [.downloaded, .replaced, .bypassed].contains(decision.outcome)
        if fromNetwork && decision.bytesReceived != response.body.count && !head {
            lines.append("\(decision.bytesReceived) bytes on the wire for a body of \(response.body.count) bytes (content coding decoded)")
        }
        return lines
    }

    func makeRequest() throws -> TransportRequest {
        var fields = try HeaderArgument.fields(headers)
        if let user, fields[.authorization] == nil {
            fields[.authorization] = "Basic " + Data(user.utf8).base64EncodedString()
        }
        let body = try self.body.map(Self.read)
        let name = method?.uppercased() ?? (head ? "HEAD" : body == nil ? "GET" : "POST")
        if body != nil && fields[.contentType] == nil { fields[.contentType] = "application/json" }
        if let userAgent = network.userAgent, fields[.userAgent] == nil { fields[.userAgent] = userAgent }
        let url = URLCredentials.moving(from: target.url, into: &fields)
        var request = TransportRequest(method: HTTPRequest.Method(name)!, url: url, headerFields: fields, body: body,
                                       timeout: TimeLimit.duration(maxTime))
        request.trust = network.trust()
        return request
    }

    /// The body's bytes: its text, or the file's (`-`: standard input), read to the end so pipes
    /// and FIFOs work too.
    private static func read(_ source: BodySource) throws -> Data {
        switch source {
        case .text(let text): return Data(text.utf8)
        case .file("-"): return FileHandle.standardInput.readDataToEndOfFile()
        case .file(let path): return try FileError.contents(of: path, role: "the request body file")
        }
    }
}
