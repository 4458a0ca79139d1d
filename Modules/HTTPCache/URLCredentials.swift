import Foundation
import HTTPTypes

/// A URL's `user:password@`: sent as Basic authentication, as curl sends it, and taken out of
/// the URL, so a cache key, a stored URL and a printed line never hold it. The URLs `fresh get`
/// and `fresh sync` are given, and every redirect's target, go through ``moving(from:into:)``.
public enum URLCredentials {
    /// `url` without its user name and password; `fields` gain the `Authorization: Basic …` they
    /// stand for, unless they hold one already (`-u`, `-H`).
    public static func moving(from url: URL, into fields: inout HTTPFields) -> URL {
        if fields[.authorization] == nil, let basic = basicAuthorization(in: url) { fields[.authorization] = basic }
        return removed(from: url)
    }

    /// `url` as it may be stored and shown: without a password or user name.
    public static func removed(from url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              components.user != nil || components.password != nil else { return url }
        components.user = nil
        components.password = nil
        return components.url ?? url
    }

    /// The `Authorization: Basic …` value of the user name and password in `url`, if it has any.
    public static func basicAuthorization(in url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let user = components.user else { return nil }
        return "Basic " + Data("\(user):\(components.password ?? "")".utf8).base64EncodedString()
    }
}
