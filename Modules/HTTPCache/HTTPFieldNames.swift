import HTTPTypes

extension HTTPField.Name {
    /// `Pragma` (RFC 9111 §5.4): `no-cache` here means `Cache-Control: no-cache` when the
    /// request has no `Cache-Control`.
    public static var pragma: Self { Self("Pragma")! }
}
