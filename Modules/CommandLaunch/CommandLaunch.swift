import ArgumentParser
import Foundation

/// How `fresh` and `fresh-reader` start and end: `--help` and `--version` print as
/// ArgumentParser prints them; any other error is one line `NAME: message (see 'NAME --help')`
/// on stderr, never ArgumentParser's `Error: … Usage: …` dump, with the exit status the
/// command's own error carries (64 for invalid arguments).
public enum CommandLaunch {
    public static func run<Command: ParsableCommand>(_ command: Command.Type, arguments: [String]? = nil) async -> Never {
        let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
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
            if let line = firstLine(of: parser.fullMessage(for: error)) {
                let name = command.configuration.commandName ?? "command"
                FileHandle.standardError.write(Data("\(name): \(line) (see '\(name) --help')\n".utf8))
            }
            command.exit(withError: ExitCode(code.rawValue))
        }
    }

    /// The message's first non-empty line without ArgumentParser's `Error: ` prefix; `nil`
    /// when there is none (a command that already said why and threw a bare exit status).
    static func firstLine(of message: String) -> String? {
        let line = message.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        return line.map { $0.hasPrefix("Error: ") ? String($0.dropFirst(7)) : $0 }
    }
}
