import ArgumentParser
import SyncEngine
import TerminalText

/// `fresh explain URL`: what a GET would do now, and why, without sending it.
struct ExplainCommand: FreshSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say what 'fresh get URL' would do now, and why, without sending anything.",
        discussion: """
            Examples of what it says:
              would answer from storage: fresh for 42 s more: max-age=60, age=18
              stale by 3 s: max-age=0, age=3 / would revalidate with If-None-Match "v3"
            """
    )

    @Argument(help: ArgumentHelp("Absolute http or https URL.", valueName: "url"))
    var target: ParsedURL

    @Option(name: .customShort("H"), help: ArgumentHelp("Request header 'Name: value' (repeatable), for Vary and Cache-Control.", valueName: "header"))
    var headers: [String] = []

    @OptionGroup var storage: StorageOptions

    func validate() throws {
        for header in headers { _ = try HeaderArgument.parse(header) }
    }

    func execute() async throws {
        let fields = try HeaderArgument.fields(headers)
        let services = FreshServices(location: storage.location, cacheCapacity: storage.cacheCapacity)
        if let failure = services.cacheFailure { throw failure } // it was asked about the file
        services.warnings.forEach { StandardError.write("fresh: warning: \($0)") }
        try services.client.explain(url: target.url, headerFields: fields).forEach { print(TerminalText.sanitized($0)) }
    }
}
