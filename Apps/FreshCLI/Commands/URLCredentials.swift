import Foundation
import HTTPTypes
import SyncEngine

/// A URL's `user:password@`, as `get` and `explain` take it: sent as curl sends it, Basic
/// authentication, unless `-u` or `-H` gave an `Authorization`; and taken out of the URL, so
/// the cache's keys and what fresh prints never hold it. (The cache keeps responses to
/// different credentials apart by the `Authorization` field: ``CacheKey``.)
enum URLCredentials {
    /// `url` without its user info; `fields` gain the `Authorization` it stood for.
    static func moved(from url: URL, into fields: inout HTTPFields) -> URL {
        if fields[.authorization] == nil, let basic = CollectionIdentity.basicAuthorization(in: url) {
            fields[.authorization] = basic
        }
        return CollectionIdentity.withoutCredentials(url)
    }
}
