import Foundation

/// The `--json` output of the read-outs: one JSON value on stdout, keys sorted, then a line break.
enum JSONOutput {
    static func print(_ value: Any) throws {
        FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]))
        Swift.print()
    }
}
