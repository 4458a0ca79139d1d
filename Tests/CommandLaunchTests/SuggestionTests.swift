import ArgumentParser
@testable import CommandLaunch
import Testing

@Suite("Did you mean…")
struct SuggestionTests {
    struct Root: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "tool", subcommands: [Items.self, Source.self])
    }

    struct Items: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "items", aliases: ["ls"])
        @Argument var name: String
        @Option(name: [.customShort("H"), .customLong("header")]) var headers: [String] = []
        @Option var parallel: Int?
    }

    struct Source: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "source", subcommands: [Add.self])
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add")
    }

    @Test(arguments: [
        (["itmes", "posts"], "'itmes' is not a command (did you mean 'items'?)"),
        (["source", "ad"], "'ad' is not a command (did you mean 'add'?)"),
        (["items", "--hedaer", "X: y", "posts"], "unknown option '--hedaer' (did you mean '--header'?)"),
        (["items", "posts", "--paralel=2"], "unknown option '--paralel' (did you mean '--parallel'?)"),
        (["zzzzzz"], "'zzzzzz' is not a command"),
        (["items", "-w", "%{http_code}", "posts"], "unknown option '-w'"),
        (["items", "-Hw", "X: y", "posts"], "unknown option '-w'"),
    ])
    func aMistypedWordGetsTheNameMeant(arguments: [String], line: String) {
        #expect(Suggestion.line(for: arguments, root: Root.self) == line)
    }

    @Test func aLineOfKnownWordsHasNoSuggestion() {
        #expect(Suggestion.line(for: ["items", "posts", "--header", "X: y"], root: Root.self) == nil)
        #expect(Suggestion.line(for: ["ls", "posts", "--", "--whatever"], root: Root.self) == nil)
        #expect(Suggestion.line(for: ["items", "-H", "X: y", "-h", "posts", "-1"], root: Root.self) == nil, "-h is help's; -1 a value")
    }

    @Test func distancesCountATranspositionAsOne() {
        #expect(Suggestion.distance("itmes", "items") == 1)
        #expect(Suggestion.distance("sync", "sync") == 0)
        #expect(Suggestion.distance("", "ab") == 2)
    }
}

/// ArgumentParser's errors, said in one line.
@Suite("One-line errors")
struct OneLineErrorTests {
    enum Style: String, ExpressibleByArgument, CaseIterable { case link, cursor, offset, page, after, single, more, other }

    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "serve")
        @Option var style: Style?
    }

    /// A long list of values comes one a line after the error's first line: it joins that line.
    @Test func theValuesOfALongListJoinTheLine() throws {
        let message = Serve.fullMessage(for: Serve.parseError(["--style", "nope"]))
        #expect(CommandLaunch.firstLine(of: message)
            == "The value 'nope' is invalid for '--style <style>'. Please provide one of the following: link, cursor, offset, page, after, single, more, other")
    }
}

extension ParsableCommand {
    /// The error parsing `arguments` throws.
    static func parseError(_ arguments: [String]) -> any Error {
        do {
            _ = try parseAsRoot(arguments)
            return CancellationError()
        } catch {
            return error
        }
    }
}
