import ArgumentParser
import Foundation

/// An absolute http(s) URL given on the command line, checked before any work starts. One
/// without a scheme (`example.com/a`, `localhost:8080`) means http, as curl reads it.
struct ParsedURL: ExpressibleByArgument {
    let url: URL

    init?(argument: String) {
        let text = argument.contains("://") ? argument : "http://" + argument
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
              url.port.map((1...65535).contains) ?? true else { return nil }
        self.url = url
    }
}
