import Foundation

/// Runs a `$(command)` of a header template: `/bin/sh -c COMMAND`, its standard output with the
/// trailing line break removed; its standard error goes to the user's terminal (a password
/// manager may ask there). At most 30 s.
public enum CommandOutput {
    static let timeLimit: TimeInterval = 30

    public static func run(_ command: String) throws(SourceError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        func failed(_ reason: String) -> SourceError { .commandFailed(command, header: "", source: "", reason: reason) }
        do {
            try process.run()
        } catch {
            throw failed("cannot start /bin/sh: \(error.localizedDescription)")
        }
        let timer = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: timer)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        if process.terminationReason == .uncaughtSignal { throw failed("stopped after \(Int(timeLimit)) s or by a signal") }
        guard process.terminationStatus == 0 else { throw failed("exit status \(process.terminationStatus)") }
        var text = String(decoding: data, as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
