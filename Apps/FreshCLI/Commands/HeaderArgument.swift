import ArgumentParser
import Foundation
import HTTPTypes
import NamedSources
import TerminalText

/// `-H 'Name: value'` (or `--header`), as curl takes it. A value may hold `${VAR}` and
/// `$(command)` as a source's header does (quoted, so the shell leaves them alone): they are
/// expanded when the request is made, and a variable that is not set stops the command (exit 64)
/// rather than send the text as written.
enum HeaderArgument {
    /// Why a `-H` value cannot be sent.
    struct Unexpandable: Error, CustomStringConvertible { var description: String }

    /// The fields of every `-H` argument, in order, their values expanded.
    static func fields(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> HTTPFields {
        HTTPFields(try arguments.map { argument in
            let (name, value) = try parse(argument)
            return HTTPField(name: name, value: try expanded(value, header: name.rawName, environment: environment))
        })
    }

    /// The name and the value as written (a source keeps its templates unexpanded).
    static func parse(_ text: String) throws -> (HTTPField.Name, String) {
        guard let colon = text.firstIndex(of: ":"),
              let name = HTTPField.Name(text[..<colon].trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError("invalid header '\(TerminalText.sanitized(text))': use 'Name: value'")
        }
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        // A CR or LF would end the field early; HTTPField would quietly turn them into spaces.
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\t" }) {
            throw ValidationError("invalid header '\(TerminalText.sanitized(text))': control characters (CR, LF, NUL, ESC…) are not allowed in a value")
        }
        do { _ = try HeaderTemplate(value).parts() } catch { throw ValidationError("-H \(name.rawName): \(error)") }
        return (name, value)
    }

    /// `value` with its `${VAR}` and `$(command)` replaced.
    private static func expanded(_ value: String, header: String, environment: [String: String]) throws -> String {
        do {
            return try HeaderTemplate(value).expanded(header: header, source: "-H", environment: environment)
        } catch .unsetVariable(let name, _, _) {
            throw Unexpandable(description: "-H \(header): the environment variable \(name) is not set (the value is never sent as written)")
        } catch .commandFailed(let command, _, _, let reason) {
            throw Unexpandable(description: "-H \(header): the command '\(command)' failed (\(reason))")
        } catch {
            throw Unexpandable(description: "-H \(header): \(error)")
        }
    }
}
