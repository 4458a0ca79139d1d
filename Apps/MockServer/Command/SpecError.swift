/// Why a command-line value (`--fault`, `--rate-limit`) could not be parsed.
public struct SpecError: Error, CustomStringConvertible, Sendable {
    /// One sentence for the command line.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
