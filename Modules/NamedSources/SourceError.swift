/// Why a source cannot be read, stored or used. Messages never hold a header's value.
public enum SourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sources file is not valid TOML, or not shaped as a sources file.
    case badFile(path: String, reason: String)
    /// The sources file cannot be read or written.
    case cannotAccess(path: String, reason: String)
    /// No source has this name.
    case unknown(String, known: [String])
    /// A source of this name exists already.
    case exists(String)
    /// A header template that cannot be read.
    case badTemplate(String, reason: String)
    /// A `${VAR}` that is unset or empty.
    case unsetVariable(String, header: String, source: String)
    /// A `$(command)` that failed.
    case commandFailed(String, header: String, source: String, reason: String)
    /// An expanded value with a line break or another control character.
    case badValue(header: String, source: String)
    /// A source whose URL or options cannot be used.
    case badSource(String, reason: String)

    public var description: String {
        switch self {
        case .badFile(let path, let reason): "\(path): \(reason)"
        case .cannotAccess(let path, let reason): "cannot use the sources file \(path): \(reason)"
        case .unknown(let name, let known):
            "no source called '\(name)'" + (known.isEmpty ? " (there are none: 'fresh source add NAME URL' adds one)" : " (sources: \(known.joined(separator: ", ")))")
        case .exists(let name): "a source called '\(name)' exists already ('fresh source rm \(name)' removes it)"
        case .badTemplate(let template, let reason): "header value '\(template)': \(reason)"
        case .unsetVariable(let name, let header, let source):
            "source '\(source)': \(header) needs the environment variable \(name), which is not set"
        case .commandFailed(let command, let header, let source, let reason):
            "source '\(source)': \(header): the command '\(command)' failed (\(reason))"
        case .badValue(let header, let source): "source '\(source)': \(header) would hold a line break or a control character"
        case .badSource(let name, let reason): "source '\(name)': \(reason)"
        }
    }

    /// The reason alone, for a message that names the rest itself.
    var reason: String {
        if case .commandFailed(_, _, _, let reason) = self { return reason }
        return description
    }
}
