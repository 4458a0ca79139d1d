/// A local file `fresh get` was asked to read (`--data @file`) or write (`-o FILE`, or the
/// terminal) failed.
enum FileError: Error, CustomStringConvertible {
    case cannotRead(String, reason: String)
    case cannotWrite(String, reason: String)
    /// A body that is not text, kept off the terminal it would garble.
    case binaryForTerminal(byteCount: Int)

    var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read the request body file \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write the output file \(path): \(reason)"
        case .binaryForTerminal(let byteCount):
            "the body is binary (\(byteCount) bytes) and was not printed to the terminal: use -o FILE, or a pipe"
        }
    }
}
