import ArgumentParser
import CommandLaunch
import Foundation

extension FreshMockCommand {
    /// Parses the process arguments and runs the server; the whole of `fresh-mock`'s `main.swift`.
    /// Every failure is one line on stderr, `fresh-mock: …`, with the exit status `--help` documents.
    /// `mirrorOpener` opens the store `--mirror` serves.
    public static func launch(_ arguments: [String]? = nil, mirrorOpener: MirrorOpener? = nil) async -> Never {
        self.mirrorOpener = mirrorOpener
        do {
            var command = try parseAsRoot(arguments)
            if let server = command as? FreshMockCommand {
                try await server.run()
            } else {
                try command.run()  // --help and --version end up here, as errors that exit 0
            }
            exit()
        } catch let error as DataFileError {
            fail(error.description, status: error.isUnreadable ? 66 : 65)
        } catch let error as MockServerError {
            fail(error.description, status: exitStatus(for: error))
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            let hint = code == .validationFailure ? " (see 'fresh-mock --help')" : ""
            fail(argumentMessage(for: error) + hint, status: code.rawValue)
        }
    }

    /// Prints `fresh-mock: message` on stderr and exits with `status`.
    private static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("fresh-mock: \(message)\n".utf8))
        exit(withError: ExitCode(status))
    }

    /// The documented exit status of a server that could not start.
    static func exitStatus(for error: MockServerError) -> Int32 {
        switch error {
        case .unknownFaultRoute, .noSuchCollection: 64
        case .cannotOpenMirror: 66
        case .stoppedBeforeListening: 1
        case .cannotMakeCertificate: 70
        case .unknownHost, .hostNotLocal: 68
        case .portInUse, .portNotPermitted, .cannotListen: 69
        }
    }

    /// ArgumentParser's message in one line (``CommandLaunch/firstLine(of:)``, as `fresh` says it).
    static func argumentMessage(for error: any Error) -> String {
        CommandLaunch.firstLine(of: fullMessage(for: error)) ?? "\(error)"
    }
}
