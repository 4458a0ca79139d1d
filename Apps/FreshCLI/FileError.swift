/// A local file `fresh get` was asked to read (`--data @file`) or write (`-o FILE`) failed.
enum FileError: Error, CustomStringConvertible {
    case cannotRead(String, reason: String)
    case cannotWrite(String, reason: String)

    var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read the request body file \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write the output file \(path): \(reason)"
        }
    }
}
