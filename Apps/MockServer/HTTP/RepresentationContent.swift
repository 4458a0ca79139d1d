import Foundation
import HTTPTypes

/// What a route builds for a representation before ``MockStore`` turns it into a
/// ``Representation``: the body bytes, the headers that belong to it (`Link`), and what is
/// known about when it last changed.
struct RepresentationContent: Sendable {
    /// What is known about the time of the content's last change.
    enum ChangeTime: Sendable, Equatable {
        /// Exactly this (an item's `updated_at`).
        case exactly(Date)
        /// This or later: a page knows its newest item, but not when an item left it or a
        /// neighbour's insertion shifted it. The store uses the dataset's last write then,
        /// unless the bytes are the ones it already had.
        case notBefore(Date)

        /// The `Last-Modified` for bytes that differ from any kept before, given the dataset's last write.
        func date(lastWrite: Date?) -> Date {
            switch self {
            case .exactly(let date): date
            case .notBefore(let date): max(date, lastWrite ?? date)
            }
        }
    }

    /// The body bytes (JSON).
    var body: Data
    /// Headers of the representation beyond the standard ones (`Link`, `X-Total-Count`); they
    /// count towards its entity tag.
    var headers: HTTPFields = [:]
    /// When the content last changed.
    var changed: ChangeTime
}

extension RepresentationContent {
    /// The content of `value` encoded by the contract encoder.
    init(encoding value: some Encodable, changed: ChangeTime, headers: HTTPFields = [:]) {
        self.init(body: APIJSON.encode(value), headers: headers, changed: changed)
    }
}
