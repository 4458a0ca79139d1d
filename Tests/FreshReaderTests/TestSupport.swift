import Foundation
import Models
import TerminalText
@testable import FreshReader

/// The real `wcwidth`, measured under a UTF-8 locale switched on once for the whole run
/// (global initialisers run exactly once, so parallel tests never race on `setlocale`).
let cells: DisplayWidth = {
    precondition(TerminalLocale.activate(), "the tests need a UTF-8 locale (C.UTF-8)")
    return .system
}()

/// A post with readable defaults.
func post(_ id: Int, title: String = "Title", author: String = "Alice Kim", body: String = "Body",
          updatedAt: Date = Date(timeIntervalSince1970: 1_700_000_000)) -> Post {
    Post(id: id, title: title, body: body, author: author, updatedAt: updatedAt)
}

/// `count` posts with ids 1…count.
func posts(_ count: Int) -> [Post] {
    (0..<count).map { post($0 + 1, title: "Post \($0 + 1)") }
}

let utc = TimeZone(identifier: "UTC")!
