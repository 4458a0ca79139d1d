import Foundation
import HTTPCache
import Logging
import Models
import Pagination
import Storage

/// Pulls every page of a cursor-paginated post collection (`{"data": [...],
/// "next_cursor": "..."}`) through the cache into the item database.
///
/// Each page's posts and cursor are written in one transaction, so an interrupted sync
/// leaves only whole pages behind, and a rerun picks up every change.
public struct PostSync: Sendable {
    private let client: CachingClient
    private let items: ItemDatabase
    private let logger = Logger(label: "fresh.sync")

    public init(client: CachingClient, items: ItemDatabase) {
        self.client = client
        self.items = items
    }

    /// Syncs the collection at `url`: a ``Paginator`` walks the cursors, and each page it
    /// loads is written before the next is asked for.
    /// - Parameters:
    ///   - limit: page size to ask for; `nil` keeps the URL's own `limit` or the server default.
    ///   - policy: the cache policy of every page request.
    ///   - timeout: per-request time limit.
    ///   - onPage: called after each page is written.
    public func run(
        url: URL, limit: Int? = nil, policy: CachePolicy = .useProtocolCachePolicy, timeout: Duration? = nil,
        onPage: @escaping @Sendable (Int, CachedResponse) -> Void = { _, _ in }
    ) async throws -> SyncSummary {
        let resource = PageURL.resource(of: url)
        let pass = SyncPass(resource: resource, base: URL(string: resource) ?? url, limit: limit, policy: policy, timeout: timeout)
        let paginator = Paginator<Post>(keepsItems: false) { token in
            try await loadPage(at: token, pass: pass, onPage: onPage)
        }
        while try await paginator.loadNextPage() != nil {}
        return pass.summary
    }

    /// Fetches, checks, decodes and writes one page; returns where the next one is.
    private func loadPage(at token: PageToken, pass: SyncPass, onPage: @Sendable (Int, CachedResponse) -> Void) async throws -> Page<Post> {
        try Task.checkCancellation()
        let pageURL = PageURL.url(base: pass.base, token: token, limit: pass.limit)
        let response = try await client.send(TransportRequest(method: .get, url: pageURL, timeout: pass.timeout), policy: pass.policy)
        if response.decision.originUnreachable {
            throw SyncError.offline(url: pageURL.absoluteString, reason: response.decision.reasons.first { $0.hasPrefix("origin unreachable") } ?? "origin unreachable")
        }
        let page = try decodePage(response, url: pageURL)
        let cursor: String? = if case .cursor(let value) = token { value } else { nil }
        let pageIndex = pass.pageIndex
        try items.savePage(page.data, page: SyncedPage(
            resource: pass.resource, pageIndex: pageIndex, cursor: cursor, nextCursor: page.nextCursor,
            itemCount: page.data.count, syncedAt: Date()), syncRun: pass.run)
        pass.count(response, items: page.data.count)
        logger.debug("page \(pageIndex): \(response.decision.label), \(page.data.count) items")
        onPage(pageIndex, response)
        if page.isLastPage {
            pass.recordDeleted(try items.finishSync(of: pass.resource, run: pass.run, lastPageIndex: pageIndex))
            return Page(items: page.data, next: nil)
        }
        guard pass.advance(past: page.nextCursor) else { throw SyncError.cursorLoop(cursor: page.nextCursor) }
        return Page(items: page.data, next: .cursor(page.nextCursor))
    }

    private func decodePage(_ response: CachedResponse, url: URL) throws -> CursorPage<Post> {
        guard (200..<300).contains(response.status.code) else {
            let message = try? JSONDecoder.api().decode(APIErrorBody.self, from: response.body).error.message
            throw SyncError.httpStatus(code: response.status.code, url: url.absoluteString, message: message)
        }
        do {
            return try JSONDecoder.api().decode(CursorPage<Post>.self, from: response.body)
        } catch let error as DecodingError {
            throw SyncError.invalidJSON(url: url.absoluteString, detail: DecodingErrorText.describe(error))
        }
    }
}

/// Short, single-line descriptions of decoding failures.
enum DecodingErrorText {
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context): context.underlyingError.map { _ in "malformed JSON" } ?? context.debugDescription
        case .keyNotFound(let key, let context): "missing field \(path(context.codingPath + [key]))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "unexpected value at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
