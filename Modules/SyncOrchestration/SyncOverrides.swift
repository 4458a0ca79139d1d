import ArgumentParser
import Foundation
import HTTPCache
import HTTPTypes
import JSON
import NamedSources
import Pacing
import Pagination
import SyncEngine

/// What the command line says about a sync, over what a source or a collection's record says:
/// `fresh sync`'s flags as values, merged into each target's options (``options(for:)``).
public struct SyncOverrides: Sendable {
    public var name: String?
    public var paginate: PaginateSpec?
    public var items: JSONPath?
    public var key: JSONPath?
    public var limit: Int?
    /// `-H` fields, expanded for each target (a `$(command)` runs again for each sync of a watch): sent
    /// with every target's requests, and kept with a URL's collection unless they carry a secret.
    public var headerFields: @Sendable () throws -> HTTPFields = { [:] }
    public var userAgent: String?
    /// `--cacert`, `--capath`, `-k`.
    public var caFile: String?
    public var caDirectory: String?
    public var insecure = false
    public var since: SinceSpec?
    public var full = false
    public var parallel: Int?
    public var policy: CachePolicy = .useProtocolCachePolicy
    public var timeout: Duration?
    public var retry = RetryPolicy()
    public var maximumPageSize = 64 * 1024 * 1024
    public var restart = false
    /// Called, before any request, for each sync whose certificates go unchecked (`-k`, `insecure`).
    public var unverified: @Sendable () -> Void = {}

    public init() {}

    /// The sync of `target`: its source's or record's options, with these over them.
    /// - Throws: `ValidationError` (`--name` on a source, a collection without a valid URL), or what `-H` threw.
    public func options(for target: SyncTarget) throws -> SyncOptions {
        let fields = try headerFields()
        var options: SyncOptions
        switch target {
        case .url(let url):
            options = SyncOptions(url: url)
            options.name = name
            options.rememberedHeaders = HTTPFields(fields.filter { !SecretFields.isSecret($0.name.rawName) })
        case .source(let source):
            if name != nil { throw ValidationError("a source's collection is named after it: --name does not apply to '\(source.name)'") }
            options = try source.syncOptions()
        case .collection(let collection):
            guard let stored = SyncOptions(resyncing: collection) else { throw ValidationError("'\(collection.name)' has no valid URL: \(collection.url)") }
            options = stored
        }
        if let paginate { options.overrides.paginate = paginate }
        if let items { options.overrides.items = items }
        if let key { options.overrides.key = key }
        if let limit { options.limit = limit }
        options.headerFields.append(contentsOf: fields)
        if let userAgent { options.headerFields[.userAgent] = userAgent }
        // A source's trust (its cacert, insecure) under the flags'; else the flags' and the environment's.
        let given: TLSTrust? = if case .source = target { options.trust } else { nil }
        options.trust = TLSTrust.flags(caFile: caFile, caDirectory: caDirectory, insecure: insecure, over: given)
        if !options.trust.verifies { unverified() }
        if let since { options.since = since }
        options.full = full
        if let parallel { options.parallel = parallel }
        options.policy = policy
        options.timeout = timeout
        options.retry = retry
        options.maximumPageSize = maximumPageSize
        options.restart = restart
        return options
    }
}
