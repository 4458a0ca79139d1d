import JSON

/// `--since PARAM=MEMBER` (a source's `since`): incremental syncs, as dlt's `incremental` does
/// them. The next sync sends the largest value of MEMBER the mirror holds as the query
/// parameter PARAM (`?since=2024-05-01T10:00:00Z`), so the server lists only what changed, and
/// what it lists is merged into the mirror: an incremental run removes nothing. The first sync
/// (nothing stored yet) and `--full` read every page and remove what is gone.
public struct SinceSpec: Sendable, Equatable, CustomStringConvertible {
    /// The query parameter the value goes in.
    public var parameter: String
    /// The member of each item whose largest stored value is sent.
    public var member: JSONPath

    /// Parses `PARAM=MEMBER` (`since=updated_at`, `updated_after=meta.modified`); `nil` when it is not one.
    public init?(parsing text: String) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[0].contains(where: { $0.isWhitespace || $0 == "&" || $0 == "#" }),
              let member = JSONPath(parsing: parts[1]), !member.isRoot else { return nil }
        (parameter, self.member) = (parts[0], member)
    }

    public var description: String { "\(parameter)=\(member)" }
}
