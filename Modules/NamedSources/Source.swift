/// A named source: a collection's first-page URL with the headers and sync options it is
/// always synced with, kept in the sources file (``SourcesFile``) so that `fresh sync NAME`
/// and the reader's refresh need nothing retyped.
public struct Source: Sendable, Equatable {
    /// The source's name, which is also its collection's name.
    public var name: String
    /// The collection's first page.
    public var url: String
    /// Request header fields, by name, in the order given: each value a ``HeaderTemplate``
    /// (`Bearer ${TOKEN}`, `$(pass show api)`), expanded only when a request is made.
    public var headers: [(name: String, value: HeaderTemplate)]
    /// `--paginate`, `--items`, `--key` and `--limit`, as they would be typed.
    public var paginate: String?
    public var items: String?
    public var key: String?
    public var limit: Int?
    /// The mirror its collection lives in (`--store`: a `postgresql://` URI, or `sqlite`);
    /// `nil` for the one `FRESH_STORE` or the default names. Better without a password in it
    /// (`~/.pgpass` or `PGPASSWORD` give one).
    public var store: String?
    /// `--since PARAM=MEMBER`, as typed: incremental syncs.
    public var since: String?
    /// `--parallel`: requests in flight at once to its origin.
    public var parallel: Int?
    /// `--cacert`: a PEM file of the certificates its server is trusted by (a private CA).
    public var cacert: String?
    /// `--insecure`: its server's certificate is not checked (a warning says so at each sync).
    public var insecure = false

    public init(name: String, url: String, headers: [(name: String, value: HeaderTemplate)] = [],
                paginate: String? = nil, items: String? = nil, key: String? = nil, limit: Int? = nil) {
        self.name = name
        self.url = url
        self.headers = headers
        self.paginate = paginate
        self.items = items
        self.key = key
        self.limit = limit
    }

    public static func == (lhs: Source, rhs: Source) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.paginate == rhs.paginate && lhs.items == rhs.items
            && lhs.key == rhs.key && lhs.limit == rhs.limit && lhs.store == rhs.store && lhs.since == rhs.since
            && lhs.parallel == rhs.parallel && lhs.cacert == rhs.cacert && lhs.insecure == rhs.insecure
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    /// Whether `name` can name a source: a word of letters, digits, `-`, `_` and `.`, not
    /// starting with `-` or `.` (it goes on command lines and into file names unquoted).
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != "-", first != ".", name.count <= 64 else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }
    }
}
