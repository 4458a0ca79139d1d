import Foundation
import Synchronization

/// The password file `libpq` reads (`PGPASSFILE`, else `~/.pgpass`): lines of
/// `host:port:database:user:password`, `*` matching anything, `\:` and `\\` escaping, `#` a
/// comment; the first line that matches wins. As `libpq` does, a file others can read is
/// ignored (with a warning on stderr), and a Unix-socket connection matches `localhost` as well
/// as its socket directory.
enum PasswordFile {
    /// Whether the warning was given: an address is read more than once a run.
    private static let warned = Atomic(false)

    static func password(for address: PostgresAddress, environment: [String: String]) -> String? {
        let path = environment["PGPASSFILE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { "\($0)/.pgpass" }
        guard let path, let contents = FileManager.default.contents(atPath: path) else { return nil }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & 0o077 != 0 {
            if !warned.exchange(true, ordering: .relaxed) {
                FileHandle.standardError.write(Data("fresh: warning: password file \(path) has group or world access; it is ignored (chmod 0600 it)\n".utf8))
            }
            return nil
        }
        let (hosts, port): ([String], Int) = switch address.endpoint {
        case .tcp(let host, let port): ([host], port)
        case .socket(let directory, let port): (["localhost", directory], port)
        }
        for line in String(decoding: contents, as: UTF8.self).split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = Self.fields(of: String(line))
            guard fields.count == 5 else { continue }
            func matches(_ field: String, _ values: [String]) -> Bool { field == "*" || values.contains(field) }
            if matches(fields[0], hosts), matches(fields[1], [String(port)]), matches(fields[2], [address.database]),
               matches(fields[3], [address.user]) {
                return fields[4]
            }
        }
        return nil
    }

    /// The colon-separated fields of a line, unescaped.
    static func fields(of line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
