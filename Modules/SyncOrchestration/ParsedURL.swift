import ArgumentParser
import Foundation
import NamedSources

/// An absolute http(s) URL given on the command line, checked before any work starts. One
/// without a scheme (`example.com/a`, `localhost:8080`) means http, as curl reads it.
public struct ParsedURL: Sendable {
    public let url: URL

    /// The URL `argument` names, or the one-line reason it names none.
    public static func parse(_ argument: String) throws -> ParsedURL {
        let text = WrittenURL.escaped(argument.contains("://") ? argument : "http://" + argument)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw ValidationError("'\(argument)' is not a URL")
        }
        guard scheme == "http" || scheme == "https" else { throw ValidationError("only http and https URLs are supported, not \(scheme): '\(argument)'") }
        guard let host = url.host, !host.isEmpty else { throw ValidationError("'\(argument)' names no host") }
        guard url.port.map((1...65535).contains) ?? true else { throw ValidationError("'\(argument)': the port must be 1…65535") }
        return ParsedURL(url: url)
    }
}
