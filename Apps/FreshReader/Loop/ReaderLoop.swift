import SyncEngine

/// The UI loop: apply what arrived in the mailbox, read the screen's rows again when another
/// connection wrote to the database, redraw when something changed, wait a short while for a
/// key, and act on it. Runs on the UI thread until the user quits or a signal asks it to.
struct ReaderLoop {
    /// Idle key polls (of ``Screen/pollMilliseconds`` each) a message stays for: about 3 s.
    static let messagePolls = 30

    var state: ReaderState
    let screen: any TerminalScreen
    let inbox: Mailbox<ReaderEvent>
    /// Starts an effect's background work; must return at once.
    let perform: (ReaderState.Effect) -> Void
    /// Whether the database changed since the last call (a cheap check: `PRAGMA data_version`).
    let databaseChanged: () throws -> Bool

    /// Runs until quit; returns the final state.
    mutating func run() -> ReaderState {
        // The first frame before anything else: what is stored, at once.
        screen.draw(ReaderFrame.lines(for: state))
        var needsDraw = false
        var quietPolls = 0
        if start(state.start()) { return state }
        while true {
            for event in inbox.drain() {
                let effect: ReaderState.Effect
                switch event {
                case .refresh(let id, let status, let summary): effect = state.refreshChanged(collectionID: id, status: status, summary: summary)
                case .pageLoaded(let id, let failure): effect = state.pageLoaded(collectionID: id, failure: failure)
                case .searchIndexUpdated(let id): effect = state.searchIndexUpdated(collectionID: id)
                case .searchedWithoutIndex(let search, let match, let failure):
                    effect = state.searchedWithoutIndex(search, match: match, failure: failure)
                case .quit: return state
                }
                if start(effect) { return state }
                needsDraw = true
            }
            do {
                if try databaseChanged() {
                    try state.reload()
                    if start(state.prefetchIfNear()) { return state }
                    needsDraw = true
                }
            } catch {
                let message = "cannot read the database: \(ErrorDescription.line(error))"
                needsDraw = needsDraw || state.message != message
                state.message = message
            }
            if needsDraw {
                screen.draw(ReaderFrame.lines(for: state))
                needsDraw = false
            }
            guard let input = screen.readInput() else {
                if screen.inputClosed { return state }
                // A wait a posted message ended is no quiet poll: only one that timed out is.
                if inbox.isEmpty { quietPolls += 1 }
                if quietPolls == Self.messagePolls, state.message != nil {
                    state.message = nil
                    needsDraw = true
                }
                continue
            }
            quietPolls = 0
            needsDraw = true
            if input == .resize {
                state.resize(to: screen.size)
                continue
            }
            if start(state.handle(input)) { return state }
        }
    }

    /// Hands an effect to ``perform``; `true` when it asks to quit.
    private func start(_ effect: ReaderState.Effect) -> Bool {
        guard effect != .quit else { return true }
        if effect != .none { perform(effect) }
        return false
    }
}
