import Fetcher
import Foundation
import Models
import TerminalText

/// Everything the reader shows, and how keys and new data change it. A pure state
/// machine: no ncurses, no database, no clock, so every transition is unit-tested.
///
/// Two modes: the list (`q` quits) and an open post (`q` goes back). New posts from a
/// refresh keep the selection on the same post; a post that disappears while open closes.
public struct ReaderState: Sendable {
    /// Which screen is showing.
    public enum Mode: Equatable, Sendable {
        /// The post list.
        case list
        /// The post with this id is open.
        case post(id: Int)
    }

    /// What the caller must do after a key.
    public enum Effect: Equatable, Sendable {
        /// Nothing beyond drawing the new state.
        case none
        /// Start a background refresh.
        case refresh
        /// Leave the reader.
        case quit
    }

    /// The screen showing now.
    public private(set) var mode: Mode = .list
    /// The stored posts, in id order.
    public private(set) var posts: [Post]
    /// The latest refresh's status.
    public private(set) var status: FetchState<[Post]>.Status = .idle
    /// The terminal's size.
    public private(set) var size: ScreenSize
    /// Selection and scroll position of the list.
    public private(set) var list: ListNavigation
    /// The open post's lines, laid out for the current width (empty in the list).
    public private(set) var postLines: [ScreenLine] = []
    /// Scroll position in the open post.
    public private(set) var postScroll: TextScroll
    /// How text is measured.
    public let measure: DisplayWidth
    /// Where dates are shown.
    public let timeZone: TimeZone

    /// The list of `posts` on a screen of `size`, first post selected, nothing refreshed yet.
    public init(posts: [Post], size: ScreenSize, measure: DisplayWidth = .system, timeZone: TimeZone = .current) {
        self.posts = posts
        self.size = size
        self.measure = measure
        self.timeZone = timeZone
        list = ListNavigation(count: posts.count, height: Self.listHeight(size))
        postScroll = TextScroll(lineCount: 0, height: Self.postHeight(size))
    }

    /// The post under the cursor in the list.
    public var selectedPost: Post? { posts.indices.contains(list.selected) ? posts[list.selected] : nil }

    // MARK: Keys

    /// Applies a key's command and says what the caller must do.
    public mutating func handle(_ command: KeyCommand) -> Effect {
        switch (command, mode) {
        case (.refresh, _): return .refresh
        case (.back, .list): return .quit
        case (.back, .post): close()
        case (.open, .list): open()
        case (.open, .post): break
        case (_, .list): navigateList(command)
        case (_, .post): scrollPost(command)
        }
        return .none
    }

    private mutating func navigateList(_ command: KeyCommand) {
        switch command {
        case .up: list.move(by: -1)
        case .down: list.move(by: 1)
        case .pageUp: list.pageUp()
        case .pageDown: list.pageDown()
        case .first: list.moveToFirst()
        case .last: list.moveToLast()
        case .open, .back, .refresh: break
        }
    }

    private mutating func scrollPost(_ command: KeyCommand) {
        switch command {
        case .up: postScroll.scroll(by: -1)
        case .down: postScroll.scroll(by: 1)
        case .pageUp: postScroll.scroll(by: -postScroll.height)
        case .pageDown: postScroll.scroll(by: postScroll.height)
        case .first: postScroll.scrollToTop()
        case .last: postScroll.scrollToBottom()
        case .open, .back, .refresh: break
        }
    }

    private mutating func open() {
        guard let post = selectedPost else { return }
        mode = .post(id: post.id)
        layOutPost()
        postScroll.scrollToTop()
    }

    private mutating func close() {
        mode = .list
        postLines = []
        postScroll.reshape(lineCount: 0, height: Self.postHeight(size))
    }

    // MARK: Data and terminal

    /// Shows a new list of posts, keeping the selection on the same post when it is still
    /// there (else on the same row).
    public mutating func showPosts(_ newPosts: [Post]) {
        let selectedID = selectedPost?.id
        posts = newPosts
        list.reshape(count: posts.count, height: Self.listHeight(size))
        if let selectedID, let index = posts.firstIndex(where: { $0.id == selectedID }) { list.select(index) }
        if case .post(let id) = mode {
            if posts.contains(where: { $0.id == id }) { layOutPost() } else { close() }
        }
    }

    /// Adopts a Fetcher state: its status, and its posts when it has read any.
    public mutating func apply(_ fetchState: FetchState<[Post]>) {
        status = fetchState.status
        if let posts = fetchState.value { showPosts(posts) }
    }

    /// Lays everything out again for a new terminal size.
    public mutating func resize(to newSize: ScreenSize) {
        size = newSize
        list.reshape(count: posts.count, height: Self.listHeight(size))
        if case .post = mode { layOutPost() }
    }

    private mutating func layOutPost() {
        guard case .post(let id) = mode, let post = posts.first(where: { $0.id == id }) else { return }
        postLines = PostDetailView.lines(for: post, width: size.columns, measure: measure, timeZone: timeZone)
        postScroll.reshape(lineCount: postLines.count, height: Self.postHeight(size))
    }

    /// List rows: the screen minus the header and the status line.
    static func listHeight(_ size: ScreenSize) -> Int { max(1, size.rows - 2) }

    /// Post lines: the screen minus the status line.
    static func postHeight(_ size: ScreenSize) -> Int { max(1, size.rows - 1) }
}
