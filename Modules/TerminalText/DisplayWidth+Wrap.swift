extension DisplayWidth {
    /// One line of text broken into lines of at most `width` cells. Breaks at spaces where
    /// it can (dropping the spaces at the break) and inside a word only when the word alone
    /// is wider than a line. An empty line stays one empty line.
    public func wrapped(_ line: String, to width: Int) -> [String] {
        guard width > 0 else { return [line] }
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        var pendingSpaces = ""
        func breakLine() {
            lines.append(current)
            current = ""
            currentWidth = 0
        }
        for (word, spaces) in Self.words(of: line) {
            let wordWidth = cells(word)
            let spaceWidth = cells(pendingSpaces)
            if !current.isEmpty, currentWidth + spaceWidth + wordWidth <= width {
                current += pendingSpaces + word
                currentWidth += spaceWidth + wordWidth
            } else {
                if !current.isEmpty { breakLine() }
                for character in word {
                    let characterWidth = cells(character)
                    if !current.isEmpty, currentWidth + characterWidth > width { breakLine() }
                    current.append(character)
                    currentWidth += characterWidth
                }
            }
            pendingSpaces = spaces
        }
        lines.append(current)
        return lines
    }

    /// The words of a line, each with the run of spaces after it.
    private static func words(of line: String) -> [(word: String, spaces: String)] {
        var result: [(word: String, spaces: String)] = []
        var word = ""
        var spaces = ""
        for character in line {
            if character == " " {
                spaces.append(character)
            } else {
                if !spaces.isEmpty {
                    result.append((word, spaces))
                    word = ""
                    spaces = ""
                }
                word.append(character)
            }
        }
        if !word.isEmpty || !spaces.isEmpty { result.append((word, spaces)) }
        return result
    }
}
