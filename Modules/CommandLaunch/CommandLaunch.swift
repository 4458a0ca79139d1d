import ArgumentParser
import Foundation

/// How `fresh` and `fresh-reader` start and end: `--help` and `--version` print as
/// ArgumentParser prints them; any other error is one line `NAME: message (see 'NAME SUB --help')`
/// on stderr (the help of the subcommand the line ran, whose screen lists its options), never
/// ArgumentParser's `Error: … Usage: …` dump, with the exit status the command's own error
/// carries (64 for invalid arguments).
public enum CommandLaunch {
    public static func run<Command: ParsableCommand>(_ command: Command.Type, arguments: [String]? = nil) async -> Never {
        let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
        // `help WORD` for a command the tree does not have is a mistyped command, as git says it;
        // ArgumentParser would print the root's help and exit 0.
        if arguments.first == "help", arguments.count > 1, let line = Suggestion.line(for: Array(arguments.dropFirst()), root: command) {
            let name = command.configuration.commandName ?? "command"
            fail(command, line: line, help: "\(name) --help", code: 64)
        }
        let entry = DirectEntry.subcommand(of: command, arguments: arguments)
        let parser = entry?.command ?? command
        do {
            var parsed = try parser.parseAsRoot(entry?.arguments ?? arguments)
            if var asyncCommand = parsed as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try parsed.run()
            }
            command.exit()
        } catch {
            let code = parser.exitCode(for: error)
            if code == .success { parser.exit(withError: error) }
            let message = parser.fullMessage(for: error)
            // A mistyped subcommand or option is said as such, with the name meant, whatever
            // ArgumentParser tripped over first (a value read in the wrong place, say).
            guard let line = Suggestion.line(for: arguments, root: command) ?? firstLine(of: message) else {
                command.exit(withError: ExitCode(code.rawValue))
            }
            let name = command.configuration.commandName ?? "command"
            fail(command, line: line, help: helpCommand(in: message, root: name, subcommand: entry?.command.configuration.commandName),
                 code: code.rawValue)
        }
    }

    /// Says `NAME: line (see 'help')` on stderr (lost if stderr cannot take it) and exits with `code`.
    private static func fail<Command: ParsableCommand>(_ command: Command.Type, line: String, help: String, code: Int32) -> Never {
        let name = command.configuration.commandName ?? "command"
        try? FileHandle.standardError.write(contentsOf: Data("\(name): \(RedactedPassword.hidden(in: line)) (see '\(help)')\n".utf8))
        command.exit(withError: ExitCode(code))
    }

    /// The help command ArgumentParser's message points to (`See 'fresh sync --help' for more
    /// information.`), with the root's name in front when the subcommand was parsed on its own
    /// (``DirectEntry``: its message says `get --help`). Without one, the help of `subcommand`
    /// when the line was parsed by it alone, else the root's.
    static func helpCommand(in message: String, root: String, subcommand: String?) -> String {
        guard let start = message.range(of: "See '"),
              let end = message[start.upperBound...].range(of: "' for more information") else {
            return subcommand.map { "\(root) \($0) --help" } ?? "\(root) --help"
        }
        let named = String(message[start.upperBound..<end.lowerBound])
        return named == root || named.hasPrefix(root + " ") ? named : "\(root) \(named)"
    }

    /// The message's first non-empty line without ArgumentParser's `Error: ` prefix; `nil`
    /// when there is none (a command that already said why and threw a bare exit status). The
    /// values it lists one a line after it (`Please provide one of the following:` and `- link`,
    /// `- cursor`, … for a long list) join it: `one of the following: link, cursor, …`.
    public static func firstLine(of message: String) -> String? {
        let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = lines.firstIndex(where: { !$0.isEmpty }) else { return nil }
        var line = lines[first].hasPrefix("Error: ") ? String(lines[first].dropFirst(7)) : lines[first]
        let listed = lines[(first + 1)...].prefix { $0.hasPrefix("- ") }.map { $0.dropFirst(2) }
        if line.hasSuffix(":"), !listed.isEmpty { line += " " + listed.joined(separator: ", ") }
        return line
    }
}
