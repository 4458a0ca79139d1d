import ArgumentParser

/// Entering the command tree at the subcommand the first argument names, for speed: the root's
/// `parseAsRoot` reflects over every command and parses the line again (docs/performance.md).
///
/// A subcommand whose configuration names the root as its `_superCommandName` (so its usage
/// still reads `fresh get`) is parsed as a root of its own, with its own grammar, when the line
/// starts with its name; a line that asks for one of the root's built-in flags (`--version`,
/// help, completion scripts, the help dump) goes through the whole tree.
struct DirectEntry {
    var command: any ParsableCommand.Type
    var arguments: [String]

    /// Long flags only the root answers, wherever they appear on the line.
    static let rootFlags = ["--version", "--generate-completion-script", "--experimental-dump-help"]

    /// Whether `argument` asks for something the root answers: one of ``rootFlags``, or help in
    /// any of the forms ArgumentParser reads as help (`--help`, `--help-hidden`, `-h` alone or in
    /// a cluster of short flags such as `-vh`; `-help` is `-h -e -l -p`), since the root's help
    /// screen for a subcommand lists the root's `--version`.
    static func asksTheRoot(_ argument: String) -> Bool {
        if argument.hasPrefix("--") {
            return argument.hasPrefix("--help") || rootFlags.contains { argument == $0 || argument.hasPrefix($0 + "=") }
        }
        return argument.hasPrefix("-") && argument.dropFirst().contains("h")
    }

    static func subcommand(of root: any ParsableCommand.Type, arguments: [String]) -> DirectEntry? {
        guard let name = arguments.first, let rootName = root.configuration.commandName else { return nil }
        guard !arguments.contains(where: asksTheRoot) else { return nil }
        let subcommand = root.configuration.subcommands.first { subcommand in
            subcommand.configuration.commandName == name && subcommand.configuration._superCommandName == rootName
        }
        return subcommand.map { DirectEntry(command: $0, arguments: Array(arguments.dropFirst())) }
    }
}
