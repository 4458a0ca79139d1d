import MirrorStore
import NamedSources

/// Which mirror each source lives in, for commands that sync them all (`--all`, `--watch`).
public enum MirrorGroups {
    /// The sources grouped by the mirror they live in: all in one with `storeFlag` (`--store`); else by a
    /// source's own `store`, or the default (`nil`: `FRESH_STORE` or SQLite), which always comes first.
    public static func of(_ sources: [Source], storeFlag: String?) -> [(given: String?, sources: [Source])] {
        let key = { (source: Source) in storeFlag == nil ? source.store : nil }
        var groups: [(given: String?, sources: [Source])] = [(nil, [])]
        for source in sources {
            if let index = groups.firstIndex(where: { $0.given == key(source) }) {
                groups[index].sources.append(source)
            } else {
                groups.append((key(source), [source]))
            }
        }
        return groups
    }

    /// Every source of the mirror, then every collection in it that no source, of any mirror, names.
    public static func targets(sources: [Source], store: any MirrorReading, namedElsewhere: [Source]) async throws -> [SyncTarget] {
        let others = try await store.collections().filter { collection in !namedElsewhere.contains { $0.name == collection.name } }
        return sources.map(SyncTarget.source) + others.map(SyncTarget.collection)
    }
}
