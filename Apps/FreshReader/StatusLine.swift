import Fetcher
import Foundation
import Models

/// The bottom line: how many posts are stored and what the latest refresh did, with the
/// keys that matter on the right.
public enum StatusLine {
    /// The left part, e.g. "42 posts · updated 14:03:21" or
    /// "42 posts · offline, showing stored posts (cannot reach the server …)".
    public static func text(postCount: Int, status: FetchState<[Post]>.Status, timeZone: TimeZone = .current) -> String {
        let count = switch postCount {
        case 0: "no posts"
        case 1: "1 post"
        default: "\(postCount) posts"
        }
        return switch status {
        case .idle: count
        case .loading: "\(count) · refreshing…"
        case .refreshed(let date): "\(count) · updated \(DateText.time(date, timeZone: timeZone))"
        case .failed(let failure) where failure.isOffline: "\(count) · offline, showing stored posts (\(failure.message))"
        case .failed(let failure): "\(count) · error: \(failure.message)"
        }
    }

    /// The key hints on the right, for the list or for an open post.
    public static func hints(inPost: Bool) -> String {
        inPost ? "j/k scroll · q back" : "Enter open · r refresh · q quit"
    }
}
