import HTTPTypes

extension HTTPField.Name {
    /// `Pragma` (RFC 9111 §5.4): `no-cache` here means `Cache-Control: no-cache` when the
    /// request has no `Cache-Control`.
    public static let pragma = Self("Pragma")!
}

extension HTTPFields {
    /// The value of the first field named `name`, without joining repeated fields into a new
    /// string: for the fields that occur once, looked up on every cache hit (`Date`, `ETag`, …).
    func firstValue(for name: HTTPField.Name) -> String? { first { $0.name == name }?.value }
}
