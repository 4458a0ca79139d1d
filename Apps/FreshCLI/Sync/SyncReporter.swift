import Foundation
import HTTPCache
import MirrorStore
import StorageErrors
import SyncEngine
import Synchronization
import TerminalText

/// Says what a sync does on stderr: one line per page with `-v`; else, on a terminal, one
/// progress line rewritten in place (at most ten times a second) and cleared at the end;
/// waits, new collections and warnings as lines of their own; nothing at all with `-q`.
final class SyncReporter: Sendable {
    enum Mode: Sendable { case quiet, verbose, progress }

    private struct State {
        var lastSummary: SyncSummary?
        var lastDraw = Date.distantPast
        var progressShown = false
        var warnedAboutHeaders = false
    }

    private let mode: Mode
    private let drawsProgress: Bool
    private let started = Date()
    private let state = Mutex(State())

    init(mode: Mode, stderrIsTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.mode = mode
        drawsProgress = mode == .progress && stderrIsTerminal
    }

    /// The run's totals at its last page, or where it stopped.
    var lastSummary: SyncSummary? { state.withLock { $0.lastSummary } }

    func report(_ event: SyncEvent) {
        switch event {
        case .page(let page):
            state.withLock { $0.lastSummary = page.summary }
            if mode == .verbose { say(Self.line(page)) } else { drawProgress(page.summary) }
        case .created(let name): unlessQuiet("new collection '\(name)'")
        case .plan(let plan): if mode == .verbose { say("pages: \(plan)") }
        case .resumed(let index): unlessQuiet("resuming the unfinished pass at page \(index + 1) (--restart starts over)")
        case .waitingForLock(let holder):
            unlessQuiet("another sync of this collection is running\(holder.map { " (\($0))" } ?? ""); waiting for it")
        case .retrying(let url, let wait, let reason, let attempt, let of):
            unlessQuiet("\(reason): waiting \(wait.formattedSeconds) before retry \(attempt) of \(of) — \(Self.shown(url))")
        case .waitingAtGate(let url, let wait, let reason):
            unlessQuiet("\(reason): waiting \(wait.formattedSeconds) before asking again — \(Self.shown(url))")
        case .droppedHeaders(let url):
            let first = state.withLock { state in defer { state.warnedAboutHeaders = true }; return !state.warnedAboutHeaders }
            if first { unlessQuiet("warning: not sending -H headers to another origin: \(Self.shown(url))") }
        case .notice(let text): unlessQuiet("warning: \(text)")
        case .listingMoved(let text): unlessQuiet(text)
        case .stopped(let summary): state.withLock { $0.lastSummary = summary }
        }
    }

    /// Clears the progress line.
    func finish() {
        let shown = state.withLock { state in defer { state.progressShown = false }; return state.progressShown }
        if shown { _ = StandardOutput.writeAll(Data("\r\u{1B}[K".utf8), to: STDERR_FILENO) }
    }

    // MARK: Lines

    static func line(_ page: PageEvent) -> String {
        let decision = page.decision
        let status = page.unchanged ? "unchanged" : "\(page.write.created) new, \(page.write.changed) changed"
        return "page \(page.index + 1): \(decision.label), \(Plural.count(page.items, "item")) (\(status)), "
            + "\(Plural.count(decision.bytesReceived, "byte")) — \(shown(page.url))"
    }

    /// Sync URLs never carry credentials (they travel as an Authorization field).
    private static func shown(_ url: URL) -> String { TerminalText.sanitized(url.absoluteString) }

    private func say(_ line: String) {
        finish()
        StandardError.write("fresh: \(line)")
    }

    private func unlessQuiet(_ line: String) { if mode != .quiet { say(line) } }

    private func drawProgress(_ summary: SyncSummary) {
        guard drawsProgress else { return }
        let now = Date()
        let due = state.withLock { state in
            guard now.timeIntervalSince(state.lastDraw) >= 0.1 else { return false }
            state.lastDraw = now
            state.progressShown = true
            return true
        }
        guard due else { return }
        let rate = Double(summary.pages) / max(now.timeIntervalSince(started), 0.001)
        let text = "page \(summary.pages) · \(Plural.count(summary.items, "item")) · \(summary.notModified) × 304 · "
            + "\(ByteCount.format(summary.bytesReceived)) · \(String(format: "%.0f", rate)) pages/s"
        _ = StandardOutput.writeAll(Data("\r\u{1B}[K\(text)".utf8), to: STDERR_FILENO)
    }
}

/// A sync that stopped before the end of its pass: the error's line says how far it got and
/// where the next sync resumes.
struct SyncStopped: Error, CustomStringConvertible {
    var underlying: any Error
    var written: SyncSummary?
    /// What the user may do about it, said after the cause.
    var hint: String?

    var description: String {
        let cause = (Self.isInterruption(underlying) ? "interrupted" : ErrorDescription.line(underlying)) + (hint.map { "; \($0)" } ?? "")
        guard let written, written.pagesWritten > 0 || written.resumedAtPage != nil, !written.complete else { return cause }
        let stored = written.pagesWritten == 0 ? "nothing stored by this run"
            : "\(Plural.count(written.pagesWritten, "page")) (\(Plural.count(written.items, "item"))"
                + (written.repeatedItems > 0 ? ", \(written.repeatedItems) of them seen twice" : "") + ") stored by this run"
        let resume = written.pageAfterLastWritten ?? written.resumedAtPage ?? 1
        switch underlying {
        case SyncError.duplicateKey, SyncError.repeatingPages: return cause
        case StorageError.corrupted: return "\(cause); \(stored) before the damage was found"
        default:
            // An incremental run is asked again whole, from the value it started from.
            if let incremental = written.incremental { return "\(cause); \(stored), the next sync asks again from \(incremental)" }
            // Items no page of this run listed are shown after its last page until a pass reads them.
            if written.itemsPutBack > 0 { return "\(cause); \(stored), the next sync starts the pass over" }
            return "\(cause); \(stored), the next sync resumes at page \(resume)"
        }
    }

    /// Ctrl-C, SIGTERM or SIGHUP, however deep it stopped the work.
    static func isInterruption(_ error: any Error) -> Bool {
        error is CancellationError || error as? TransportError == .cancelled
    }
}
