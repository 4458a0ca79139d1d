import Fetcher
import Models

/// What reaches the UI loop from outside the keyboard.
enum ReaderEvent: Sendable {
    /// The Fetcher's state changed (status, and the stored posts it read).
    case fetch(FetchState<[Post]>)
    /// The item database changed (a refresh wrote a page).
    case posts([Post])
    /// A signal (SIGINT, SIGTERM, SIGHUP) asks the reader to quit.
    case quit
}
