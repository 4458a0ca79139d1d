import ArgumentParser
import Foundation

/// An absolute http(s) URL given on the command line, checked before any work starts.
struct ParsedURL: ExpressibleByArgument {
    let url: URL

    init?(argument: String) {
        guard let url = URL(string: argument), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
              url.port.map((1...65535).contains) ?? true else { return nil }
        self.url = url
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
