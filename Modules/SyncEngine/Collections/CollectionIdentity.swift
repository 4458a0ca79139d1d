import Foundation
import Pagination

/// What makes two URLs the same collection: scheme, host and port (lower-cased, default
/// port dropped), path, and the query without the parameters that only move through the
/// pages or size them (`cursor`, `page`, `offset`, `limit`, …), in sorted order. User info
/// and fragment never count.
public enum CollectionIdentity {
    /// Query parameters that say where in a collection a page is.
    static let positionParameters: Set<String> = [
        "cursor", "page", "_page", "page_number", "pageNumber", "page[number]", "offset", "skip", "start", "_start",
        "from", "after", "before", "starting_after", "ending_before", "page_token", "pageToken", "continuation",
        "continuationToken", "next_token", "nextToken",
    ]

    /// The identity of `url`.
    public static func of(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.user = nil
        components.password = nil
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if (components.scheme == "http" && components.port == 80) || (components.scheme == "https" && components.port == 443) {
            components.port = nil
        }
        if components.path.isEmpty { components.path = "/" }
        let sizes = Set(PageSize.parameterNames)
        let kept = (components.queryItems ?? []).filter { !positionParameters.contains($0.name) && !sizes.contains($0.name) }
        components.queryItems = kept.isEmpty ? nil : kept.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
        return components.string ?? url.absoluteString
    }

    /// A short name for a new collection of `url`: its last path segment that is not a
    /// number (`/v1/users/42/repos` → `repos`), without a file extension (`countries.json` →
    /// `countries`), else the host.
    public static func defaultName(for url: URL) -> String {
        let segments = url.path.split(separator: "/").map(String.init).filter { !$0.isEmpty && Int($0) == nil }
        let raw = segments.last.map(withoutExtension) ?? url.host ?? "collection"
        let cleaned = raw.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "-" }
        let name = String(cleaned).trimmingCharacters(in: CharacterSet(charactersIn: "-.")).lowercased().prefix(40)
        return name.isEmpty ? "collection" : String(name)
    }

    private static func withoutExtension(_ segment: String) -> String {
        let extensions = [".json", ".ndjson", ".jsonl", ".geojson", ".php", ".asp", ".aspx", ".cgi"]
        guard let found = extensions.first(where: { segment.lowercased().hasSuffix($0) && segment.count > $0.count }) else { return segment }
        return String(segment.dropLast(found.count))
    }
}
