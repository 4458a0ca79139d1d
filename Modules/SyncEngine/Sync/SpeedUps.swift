import Foundation

/// The speed-ups a sync may use, each a named step a reader can skip: without any, a sync is the plain
/// path, one request at a time, each page read, then written at once, the HTTP cache looked up through
/// GRDB, and compressed bodies decoded by libcurl. docs/architecture.md's speed table gives each one's
/// figure; tests show both give identical mirrors.
public struct SpeedUps: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A page whose link is read before its items has the next request out while it is read.
    public static let readAhead = SpeedUps(rawValue: 1 << 0)
    /// A re-sync asks for the pages the last pass's chain says come next before it needs them.
    public static let chainLookahead = SpeedUps(rawValue: 1 << 1)
    /// Pages are written by a task of their own, several per transaction when they come fast.
    public static let writeBehind = SpeedUps(rawValue: 1 << 2)
    /// A pass's requests are driven by a thread of their own (`TransferChain`), without blocking one per request.
    public static let transferLoop = SpeedUps(rawValue: 1 << 3)
    /// Cache lookups read SQLite directly (`CacheConnection`), not through GRDB.
    public static let rawCacheLookups = SpeedUps(rawValue: 1 << 4)
    /// Compressed bodies are decoded once whole, gzip and deflate by libdeflate, not by libcurl's zlib as they arrive.
    public static let libdeflate = SpeedUps(rawValue: 1 << 5)
    /// The last pass's page records are read half a window at a time, the next half while the walk is in the one before.
    public static let recordReadAhead = SpeedUps(rawValue: 1 << 6)

    public static let all: SpeedUps = [.readAhead, .chainLookahead, .writeBehind, .transferLoop, .rawCacheLookups, .libdeflate, .recordReadAhead]

    /// Each speed-up by the name `FRESH_SPEEDUPS` gives it.
    public static let names: [(name: String, speedUp: SpeedUps)] = [
        ("read-ahead", .readAhead), ("chain-lookahead", .chainLookahead), ("write-behind", .writeBehind),
        ("transfer-loop", .transferLoop), ("raw-cache-lookups", .rawCacheLookups), ("libdeflate", .libdeflate),
        ("record-read-ahead", .recordReadAhead),
    ]

    /// The speed-ups `text` (`FRESH_SPEEDUPS`) names (`nil`: an unknown name): unset, empty or `all`
    /// for every one; `none` for the plain path; else names separated by commas, each turning one
    /// on, or off with a leading `-` (`-write-behind`: all but that one).
    public static func configured(_ text: String?) -> SpeedUps? {
        guard let text, !text.isEmpty, text != "all" else { return .all }
        if text == "none" { return [] }
        let words = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var chosen: SpeedUps = words.allSatisfy { $0.hasPrefix("-") } ? .all : []
        for word in words {
            let name = word.hasPrefix("-") ? String(word.dropFirst()) : word
            guard let speedUp = names.first(where: { $0.name == name })?.speedUp else { return nil }
            if word.hasPrefix("-") { chosen.remove(speedUp) } else { chosen.insert(speedUp) }
        }
        return chosen
    }
}
