/// The UI loop: apply what arrived in the mailbox, redraw when something changed, wait a
/// short while for a key, and act on it. Runs on the UI thread until the user quits or a
/// signal asks it to.
struct ReaderLoop {
    var state: ReaderState
    let screen: any TerminalScreen
    let inbox: Mailbox<ReaderEvent>
    /// Starts a background refresh; must return at once.
    let refresh: () -> Void

    /// Runs until quit; returns the final state.
    mutating func run() -> ReaderState {
        var needsDraw = true
        while true {
            for event in inbox.drain() {
                switch event {
                case .fetch(let fetchState): state.apply(fetchState)
                case .posts(let posts): state.showPosts(posts)
                case .quit: return state
                }
                needsDraw = true
            }
            if needsDraw {
                screen.draw(ReaderFrame.lines(for: state))
                needsDraw = false
            }
            guard let input = screen.readInput() else { continue }
            if input == .resize {
                state.resize(to: screen.size)
                needsDraw = true
                continue
            }
            guard let command = KeyCommand(input) else { continue }
            switch state.handle(command) {
            case .quit: return state
            case .refresh: refresh()
            case .none: break
            }
            needsDraw = true
        }
    }
}
