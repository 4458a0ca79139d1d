/// Header fields that usually carry a secret: `Authorization`, `Proxy-Authorization`, `Cookie`,
/// and any whose name says token, key, secret, auth or password (`X-Api-Key`, `X-Auth-Token`).
/// The cache keeps responses apart by their values and holds only digests of them
/// (``CacheKey/variant(vary:requestFields:uncheckedTLS:)``); a sync does not remember them, and
/// sources show them as `***`.
public enum SecretFields {
    /// Whether a field called `name` (any case) usually carries a secret.
    public static func isSecret(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["authorization", "proxy-authorization", "cookie"].contains(lower)
            || ["token", "key", "secret", "auth", "password"].contains { lower.contains($0) }
    }
}
