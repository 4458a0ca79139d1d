import ArgumentParser
import Composition
import Foundation
import HTTPCache
import SyncEngine
import SyncOrchestration
import TerminalText

/// `fresh explain URL`: what a GET would do now, and why, without sending it.
struct ExplainCommand: FreshSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say what 'fresh get URL' would do now, and why, without sending anything.",
        discussion: """
            A page 'fresh sync' read is kept as its validators only (its items are in the \
            mirror); for such a URL it also says what the next sync would do with it.

            Examples of what it says:
              would answer from storage: fresh for 42 s more: max-age=60, age=18
              stale by 3 s: max-age=0, age=3 / would revalidate with If-None-Match "v3"
            """
    )

    @Argument(help: ArgumentHelp("http or https URL, as fresh get takes it (without a scheme, http).", valueName: "url"), transform: ParsedURL.parse)
    var target: ParsedURL

    @Option(name: [.customShort("H"), .customLong("header")], help: ArgumentHelp("Request header 'Name: value' (repeatable), for Vary and Cache-Control.", valueName: "header"))
    var headers: [String] = []

    @Flag(help: "Print a JSON object: the URL and each explanation's lines.")
    var json = false

    @OptionGroup var storage: DirectoryOption

    func validate() throws {
        for header in headers { _ = try HeaderArgument.parse(header) }
    }

    func execute() async throws {
        var fields = try HeaderArgument.fields(headers)
        let url = URLCredentials.moving(from: target.url, into: &fields)
        let services = FreshServices(location: storage.location)
        if let failure = services.cacheFailure { throw failure } // it was asked about the file
        services.warnings.forEach { StandardError.write("fresh: warning: \($0)") }
        let get = try services.client.explain(url: url, headerFields: fields)
        let syncPage = try services.pageClient.storesAnything(for: url)
            ? try services.pageClient.explain(url: url, headerFields: fields) : nil
        if json {
            return try JSONOutput.print(["url": url.absoluteString, "get": get, "syncPage": syncPage ?? NSNull()] as [String: Any])
        }
        get.forEach { StandardOutput.line(TerminalText.sanitized($0)) }
        if let syncPage {
            StandardOutput.line("fresh sync stored this page (validators only; its items are in the mirror):")
            syncPage.forEach { StandardOutput.line(TerminalText.sanitized("  " + $0)) }
        }
    }
}
