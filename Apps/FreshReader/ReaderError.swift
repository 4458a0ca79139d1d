import MirrorStore
import StorageErrors
import SyncEngine

/// Why the reader could not start. Each case is one line on stderr and an exit status
/// (listed in `fresh-reader --help`).
public enum ReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Standard input or output is not a terminal.
    case notATerminal
    /// The terminal's foreground process group is another one: no key could be read.
    case notInTheForeground
    /// ncurses could not take over the terminal (e.g. an unknown `TERM`).
    case terminal(String)
    /// A database could not be opened or read.
    case storage(StorageError)
    /// The arguments name something that is not there (an unknown --collection).
    case usage(String)

    public var description: String {
        switch self {
        case .notATerminal: "standard input and output must be a terminal (fresh-reader is interactive; use `fresh` in scripts)"
        case .notInTheForeground:
            "not in the terminal's foreground, so no key can be read (started with &, or by timeout without --foreground?)"
        case .terminal(let reason), .usage(let reason): reason
        case .storage(let error): ErrorDescription.line(error)
        }
    }

    /// The exit status: 2 for the terminal, 6 for a database (as `fresh` uses).
    public var exitCode: Int32 {
        switch self {
        case .notATerminal, .notInTheForeground, .terminal: 2
        case .storage: 6
        case .usage: 64
        }
    }
}
