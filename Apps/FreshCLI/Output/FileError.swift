import Foundation

/// A local file a command was asked to read (`--data @file`, `--input-file`) or write (`-o FILE`, or the
/// terminal) failed.
enum FileError: Error, CustomStringConvertible {
    /// A file named on the command line (`role` says which: "the request body file", "--input-file").
    case cannotRead(String, role: String, reason: String)
    case cannotWrite(String, reason: String)
    /// A body that is not text, kept off the terminal it would garble.
    case binaryForTerminal(byteCount: Int)

    var description: String {
        switch self {
        case .cannotRead(let path, let role, let reason): "cannot read \(role) \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write the output file \(path): \(reason)"
        case .binaryForTerminal(let byteCount):
            "the body is binary (\(byteCount) bytes) and was not printed to the terminal: use -o FILE, or a pipe"
        }
    }
}

extension FileError {
    /// The bytes of the file at `path`, which the command line names as `role`. A file that
    /// cannot be read is a file problem (exit 6, as for -o), said in one line before any request.
    static func contents(of path: String, role: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw cannotRead(path, role: role, reason: "no such file") }
        guard !isDirectory.boolValue else { throw cannotRead(path, role: role, reason: "it is a directory") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw cannotRead(path, role: role, reason: "permission denied") }
        do {
            let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? file.close() }
            return try file.readToEnd() ?? Data()
        } catch {
            throw cannotRead(path, role: role, reason: (error as NSError).localizedDescription)
        }
    }
}
