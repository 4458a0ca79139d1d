import ArgumentParser
import Foundation

// MARK: - Launching

extension FreshMockCommand {
    /// Parses the process arguments and runs the server; the whole of `fresh-mock`'s `main.swift`.
    ///
    /// Help and version print as usual. Every failure is one line on stderr, `fresh-mock: …`,
    /// with the exit status `fresh-mock --help` documents: no usage dump for a failure at run
    /// time, no framework error text.
    public static func launch(_ arguments: [String]? = nil) async -> Never {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }  // --help, --version
            writeToStandardError("fresh-mock: \(argumentMessage(for: error)) (see 'fresh-mock --help')")
            exit(withError: code)
        }
        do {
            if var server = command as? FreshMockCommand {
                try await server.run()
            } else {
                try command.run()
            }
            exit()
        } catch {
            writeToStandardError("fresh-mock: \(error)")
            exit(withError: ExitCode(exitStatus(for: error)))
        }
    }

    /// The documented exit status of a failure after the arguments were accepted.
    static func exitStatus(for error: any Error) -> Int32 {
        switch error {
        case let error as DataFileError: error.isUnreadable ? 66 : 65
        case MockServerError.unknownFaultRoute: 64
        case MockServerError.stoppedBeforeListening: 1
        case let error as MockServerError: error.isHostProblem ? 68 : 69
        default: 1
        }
    }

    /// The first line of ArgumentParser's message, without its `Error: ` prefix.
    static func argumentMessage(for error: any Error) -> String {
        let first = fullMessage(for: error).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? "\(error)"
        return first.hasPrefix("Error: ") ? String(first.dropFirst(7)) : first
    }

    private static func writeToStandardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
