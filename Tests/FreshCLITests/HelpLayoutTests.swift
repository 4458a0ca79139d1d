import ArgumentParser
import Testing
@testable import FreshCLI
import FreshReader
import MockServer

/// The three programs' `--help`, as read in an 80-column terminal: a line laid out by hand (an
/// example, a table row) is never wrapped into the next, and a default is said once.
@Suite("--help reads well at 80 columns")
struct HelpLayoutTests {
    /// Every command of the three programs, subcommands included.
    static let commands: [any ParsableCommand.Type] = {
        func tree(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
            [command] + command.configuration.subcommands.flatMap(tree)
        }
        return tree(FreshCommand.self) + [ReaderCommand.self, FreshMockCommand.self]
    }()

    @Test(arguments: commands.map { ObjectIdentifier($0) })
    func linesLaidOutByHandFitIn80Columns(_ id: ObjectIdentifier) {
        let command = Self.commands.first { ObjectIdentifier($0) == id }!
        for line in command.configuration.discussion.split(separator: "\n") where line.first == " " {
            #expect(line.count < 80, "\(command.configuration.commandName ?? "?"): wrapped at 80 columns: \(line)")
        }
    }

    @Test(arguments: commands.map { ObjectIdentifier($0) })
    func eachDefaultIsSaidOnce(_ id: ObjectIdentifier) {
        let command = Self.commands.first { ObjectIdentifier($0) == id }!
        let help = command.helpMessage(columns: 1000)
        for line in help.split(separator: "\n") where line.contains("(default: ") {
            let before = line.components(separatedBy: "(default: ")[0]
            #expect(!before.contains("(default "), "\(command.configuration.commandName ?? "?"): \(line)")
        }
    }

    @Test func exitStatusesAreListedInOrder() {
        let discussion = FreshCommand.configuration.discussion
        let codes = discussion.components(separatedBy: "Exit status:")[1].split(separator: "\n")
            .compactMap { line in line.hasPrefix("  ") && !line.hasPrefix("   ") ? Int(line.split(separator: " ")[0]) : nil }
        #expect(codes == codes.sorted())
        #expect(codes.contains(9))
    }
}
