import ArgumentParser

/// "Did you mean …?" for a mistyped subcommand or option, as git and gh say it: the known name
/// closest to the word typed, when it is close enough to be a typo.
enum Suggestion {
    /// The line for the first word of `arguments` that `root`'s tree does not know, with the
    /// closest name it does know; `nil` when every word is known (the error is another one).
    static func line(for arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var words = arguments[...]
        // Down the tree as far as the line names subcommands.
        while let word = words.first, !word.hasPrefix("-"),
              let subcommand = command.configuration.subcommands.first(where: { names(of: $0).contains(word) }) {
            command = subcommand
            words = words.dropFirst()
        }
        if let word = words.first, !word.hasPrefix("-"), !command.configuration.subcommands.isEmpty {
            let known = command.configuration.subcommands.flatMap(names(of:))
            return "'\(word)' is not a command" + hint(word, known)
        }
        let known = optionNames(of: command)
        let knownLetters = shortOptionLetters(of: command)
        for word in words.prefix(while: { $0 != "--" }) where word.hasPrefix("-") {
            if word.hasPrefix("--") {
                let name = String(word.prefix { $0 != "=" })
                if !known.contains(name) { return "unknown option '\(name)'" + hint(name, known) }
            } else if let letter = word.dropFirst().first(where: { !knownLetters.contains($0) }), word.dropFirst().allSatisfy(\.isLetter) {
                // `-w`, or a letter of `-sSw`; a word of digits (`-1`) is a value, not an option.
                return "unknown option '-\(letter)'"
            }
        }
        return nil
    }

    /// The letters of the short options `command` takes (`-H, --header` gives `H`), from its help.
    private static func shortOptionLetters(of command: any ParsableCommand.Type) -> Set<Character> {
        let help = command.helpMessage(includeHidden: true, columns: 1000)
        return Set(help.matches(of: /(?:^|[\s,\[])-([A-Za-z])(?=[\s,\]])/.anchorsMatchLineEndings()).map { $0.output.1.first! } + ["h"])
    }

    /// ` (did you mean 'x'?)`, or nothing when no known name is near.
    private static func hint(_ word: String, _ known: [String]) -> String {
        closest(to: word, among: known).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The candidate nearest to `word` by edit distance, within a third of its length (at least 1, at most 3).
    static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = min(3, max(1, word.count / 3))
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance, a transposition of neighbours counting one (`itmes` → `items`).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[a.count][b.count]
    }

    private static func names(of command: any ParsableCommand.Type) -> [String] {
        (command.configuration.commandName.map { [$0] } ?? []) + command.configuration.aliases
    }

    /// The long options `command` takes, read from its help (every option is listed there).
    private static func optionNames(of command: any ParsableCommand.Type) -> [String] {
        let help = command.helpMessage(includeHidden: true, columns: 1000)
        return Array(Set(help.matches(of: /--[A-Za-z0-9][A-Za-z0-9-]*/).map { String($0.output) } + ["--help", "--version"]))
    }
}
