import ArgumentParser
@testable import CommandLaunch
import Testing

@Suite("Entering the command tree at a subcommand")
struct DirectEntryTests {
    struct Root: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tool", version: "tool 1.0", subcommands: [Fast.self, Plain.self])
    }

    struct Fast: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "fast", _superCommandName: "tool")
        @Argument var target: String
        @Flag(name: .shortAndLong) var verbose = false
    }

    struct Plain: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "plain")
        @Argument var target: String
    }

    @Test func aSubcommandNamingTheRootAsItsSuperCommandIsParsedOnItsOwn() throws {
        let entry = try #require(DirectEntry.subcommand(of: Root.self, arguments: ["fast", "x", "-v"]))
        #expect(ObjectIdentifier(entry.command) == ObjectIdentifier(Fast.self))
        #expect(entry.arguments == ["x", "-v"])
        let parsed = try #require(try entry.command.parseAsRoot(entry.arguments) as? Fast)
        #expect(parsed.target == "x" && parsed.verbose)
    }

    @Test func otherSubcommandsAndEmptyLinesGoThroughTheWholeTree() {
        #expect(DirectEntry.subcommand(of: Root.self, arguments: ["plain", "x"]) == nil)
        #expect(DirectEntry.subcommand(of: Root.self, arguments: []) == nil)
        #expect(DirectEntry.subcommand(of: Root.self, arguments: ["x", "fast"]) == nil)
    }

    /// The root's own flags (its version, its help screen, completion scripts) are answered by
    /// the root wherever they stand on the line, as ArgumentParser answers them.
    @Test(arguments: [["fast", "--version"], ["fast", "x", "--help"], ["fast", "-h"], ["fast", "x", "-vh"], ["fast", "-help"],
                      ["fast", "--help-hidden"],
                      ["fast", "--generate-completion-script", "bash"], ["fast", "--generate-completion-script=zsh"],
                      ["fast", "--experimental-dump-help"]])
    func linesAskingTheRootGoThroughTheWholeTree(arguments: [String]) {
        #expect(DirectEntry.subcommand(of: Root.self, arguments: arguments) == nil)
    }

    /// The line an error prints (its first) is the same as through the tree.
    @Test func errorsReadAsThroughTheTree() throws {
        let entry = try #require(DirectEntry.subcommand(of: Root.self, arguments: ["fast"]))
        var direct = ""
        var tree = ""
        do { _ = try entry.command.parseAsRoot(entry.arguments) } catch { direct = entry.command.fullMessage(for: error) }
        do { _ = try Root.parseAsRoot(["fast"]) } catch { tree = Root.fullMessage(for: error) }
        #expect(CommandLaunch.firstLine(of: direct) == "Missing expected argument '<target>'")
        #expect(CommandLaunch.firstLine(of: direct) == CommandLaunch.firstLine(of: tree))
    }

    /// An error points to the help of the subcommand that ran, whose screen lists its options,
    /// whichever way the line was parsed.
    @Test func anErrorPointsToTheHelpOfTheSubcommandThatRan() throws {
        var direct = "", tree = ""
        let entry = try #require(DirectEntry.subcommand(of: Root.self, arguments: ["fast", "x", "--bogus"]))
        do { _ = try entry.command.parseAsRoot(entry.arguments) } catch { direct = entry.command.fullMessage(for: error) }
        do { _ = try Root.parseAsRoot(["plain", "x", "--bogus"]) } catch { tree = Root.fullMessage(for: error) }
        #expect(CommandLaunch.helpCommand(in: direct, root: "tool", subcommand: "fast") == "tool fast --help")
        #expect(CommandLaunch.helpCommand(in: tree, root: "tool", subcommand: nil) == "tool plain --help")
        #expect(CommandLaunch.helpCommand(in: "Missing expected argument", root: "tool", subcommand: "fast") == "tool fast --help")
        #expect(CommandLaunch.helpCommand(in: "Missing expected argument", root: "tool", subcommand: nil) == "tool --help")
    }
}
