import Foundation
import HTTPCache
import HTTPTypes
import JSON
import MirrorStore
import Pagination
import SyncEngine

extension Source {
    /// What `fresh sync NAME` and the reader's refresh of this source do: its URL and options,
    /// its collection called after it, and its headers expanded now (an unset variable or a
    /// failing command stops it here, before any request).
    public func syncOptions(environment: [String: String] = ProcessInfo.processInfo.environment,
                            run: (String) throws(SourceError) -> String = CommandOutput.run) throws(SourceError) -> SyncOptions {
        guard let url = WrittenURL.http(url) else {
            throw .badSource(name, reason: "url '\(self.url)' is not an http or https URL")
        }
        var options = SyncOptions(url: url)
        options.name = name
        options.limit = limit
        do {
            options.overrides.paginate = try paginate.map { try PaginateSpec(parsing: $0) }
        } catch {
            throw .badSource(name, reason: "paginate '\(paginate ?? "")': \(error)")
        }
        if let items {
            guard let path = JSONPath(parsing: items) else { throw .badSource(name, reason: "items '\(items)' is not a member path like data") }
            options.overrides.items = path
        }
        if let key {
            guard let path = JSONPath(parsing: key), !path.isRoot else { throw .badSource(name, reason: "key '\(key)' is not a member path like id") }
            options.overrides.key = path
        }
        if let since {
            guard let spec = SinceSpec(parsing: since) else { throw .badSource(name, reason: "since '\(since)' is not PARAM=MEMBER, such as since=updated_at") }
            options.since = spec
        }
        options.parallel = parallel
        options.trust = TLSTrust.resolved(caFile: cacert, caDirectory: nil, verifies: !insecure, environment: environment)
        for (header, template) in headers {
            guard let fieldName = HTTPField.Name(header) else { throw .badSource(name, reason: "'\(header)' is not a header name") }
            options.headerFields.append(HTTPField(name: fieldName, value: try template.expanded(header: header, source: name, environment: environment, run: run)))
        }
        return options
    }
}

extension SourcesFile {
    /// The sync of a collection synced before (the reader's refresh and page loads): as the source
    /// of its name says, so its headers are sent; else its URL and the header fields it keeps.
    public func syncOptions(for collection: CollectionRecord) throws(SourceError) -> SyncOptions {
        if let source = try load().first(where: { $0.name == collection.name }) { return try source.syncOptions() }
        guard let options = SyncOptions(resyncing: collection) else {
            throw .badSource(collection.name, reason: "its URL is not valid: \(collection.url)")
        }
        return options
    }
}
