import Foundation
import HTTPFields
import HTTPTypes

/// What a ``Representation`` needs to answer a 304, without its bodies: kept by ``MockStore``
/// for a page too seldom asked for to keep whole (``Representation/init(validators:)`` makes a
/// representation of it again).
struct RepresentationValidators: Sendable {
    let identityTag: EntityTag
    /// `nil` when the representation has no gzip coding.
    let gzipTag: EntityTag?
    let identityLength: Int
    let gzipLength: Int
    let lastModified: Date?
    /// `nil` when there are none (each empty set of fields holds storage of its own).
    let extraHeaders: HTTPFields?

    /// About what one without headers of its own takes in memory, its key and its slot in the
    /// store included (measured: the validators of 100,000 pages of posts raised the server's
    /// peak from 375 to 451 MiB).
    static let fixedByteCount = 800

    /// About what it takes, counted against ``MockStore/validatorBudget``: a `Link` header of
    /// absolute URLs adds its bytes.
    var byteCount: Int {
        Self.fixedByteCount + (extraHeaders ?? [:]).reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count }
    }
}
