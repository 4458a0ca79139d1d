import Foundation
import HTTPCache

/// A header value as the sources file keeps it: literal text with `${VAR}` (an environment
/// variable) and `$(command)` (what a command prints, such as `$(pass show api/token)`) in it.
/// `$$` is a literal `$`. The template is what is stored and shown; its expansion, which may
/// hold a secret, exists only while a request is made.
public struct HeaderTemplate: Sendable, Equatable, CustomStringConvertible {
    /// The value as written.
    public var text: String

    public init(_ text: String) { self.text = text }

    public var description: String { text }

    /// One piece of a template.
    public enum Part: Equatable, Sendable {
        case literal(String)
        case variable(String)
        case command(String)
    }

    /// Where a header's value comes from, as `fresh source show` says it.
    public enum Origin: Sendable, Equatable {
        /// Environment variables (named), and whether each is set now.
        case environment([(name: String, isSet: Bool)])
        /// Commands run when a request is made.
        case command([String])
        /// The text itself, stored in the file.
        case file

        public static func == (lhs: Origin, rhs: Origin) -> Bool {
            switch (lhs, rhs) {
            case let (.environment(a), .environment(b)): a.map(\.name) == b.map(\.name) && a.map(\.isSet) == b.map(\.isSet)
            case let (.command(a), .command(b)): a == b
            case (.file, .file): true
            default: false
            }
        }
    }

    /// The template's pieces, or why it cannot be read (`${` or `$(` never closed, an empty name).
    public func parts() throws(SourceError) -> [Part] {
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.hasPrefix("$") {
                literal += "$"
                rest = after.dropFirst()
            } else if after.hasPrefix("{") || after.hasPrefix("(") {
                let closing: Character = after.first == "{" ? "}" : ")"
                guard let end = after.firstIndex(of: closing) else { throw .badTemplate(text, reason: "'$\(after.first!)' is never closed") }
                let inner = String(after[after.index(after: after.startIndex)..<end]).trimmingCharacters(in: .whitespaces)
                guard !inner.isEmpty else { throw .badTemplate(text, reason: "'$\(after.first!)\(closing)' names nothing") }
                if closing == "}" && !Self.isVariableName(inner) {
                    throw .badTemplate(text, reason: "'\(inner)' is not an environment variable name")
                }
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(closing == "}" ? .variable(inner) : .command(inner))
                rest = after[after.index(after: end)...]
            } else {
                literal += "$"
                rest = after
            }
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }

    /// Where the value comes from: its variables, else its commands, else the file itself.
    public func origin(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SourceError) -> Origin {
        let parts = try parts()
        let variables = parts.compactMap { if case .variable(let name) = $0 { name } else { nil } }
        let commands = parts.compactMap { if case .command(let command) = $0 { command } else { nil } }
        if !variables.isEmpty { return .environment(variables.map { ($0, environment[$0].map { !$0.isEmpty } ?? false) }) }
        if !commands.isEmpty { return .command(commands) }
        return .file
    }

    /// The value to send, every variable and command replaced; an unset or empty variable, or a command
    /// that fails or prints nothing, is an error naming it and `header` of `source` (no empty header is sent).
    public func expanded(header: String, source: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                         run: (String) throws(SourceError) -> String = CommandOutput.run) throws(SourceError) -> String {
        var value = ""
        for part in try parts() {
            switch part {
            case .literal(let text): value += text
            case .variable(let name):
                guard let text = environment[name], !text.isEmpty else { throw .unsetVariable(name, header: header, source: source) }
                value += text
            case .command(let command):
                let output: String
                do {
                    output = try run(command)
                } catch {
                    throw .commandFailed(command, header: header, source: source, reason: error.reason)
                }
                guard !output.isEmpty else { throw .commandFailed(command, header: header, source: source, reason: "it printed nothing") }
                value += output
            }
        }
        guard value.unicodeScalars.allSatisfy({ $0 == "\t" || !($0.properties.generalCategory == .control) }) else {
            throw .badValue(header: header, source: source)
        }
        return value
    }

    static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    /// Whether this value, stored as it is, is a secret: a secret-named field whose value is literal text.
    public func isLiteralSecret(header: String) -> Bool {
        SecretFields.isSecret(header) && (try? origin()) == .file
    }

    /// The value as it may be shown: the template, or `***` for a literal secret.
    public func shown(header: String) -> String {
        isLiteralSecret(header: header) ? "***" : text
    }
}
