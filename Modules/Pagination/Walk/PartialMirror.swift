import JSON

/// Signs that a pass which ended as its pages said still holds less than the server has. The
/// walk cannot see them (each page pointed where it pointed); a sync checks them, says each in
/// one line, and `fresh sync` exits 9 unless `--allow-partial`.
public enum PartialMirror {
    /// The first page answered a page size other than the one asked for: fewer items while it
    /// points onward, or more. The server ignored the size parameter, so a walk that counts
    /// pages by that size may end early, and the user's `--limit` means nothing.
    public static func ignoredPageSize(asked: Int?, parameter: String?, itemCount: Int, pointsOnward: Bool) -> String? {
        guard let asked, itemCount > asked || (itemCount < asked && pointsOnward) else { return nil }
        let name = parameter ?? "limit"
        return "the server ignored the page size: \(asked) items asked with '\(name)', \(itemCount) sent "
            + "(name its size parameter with --paginate STYLE:size=NAME)"
    }

    /// A member the user named in `--paginate` (`path`, `has-more`, `total`…) that the first
    /// page does not have: the walk took the page for the last one, or counted without a total.
    public static func absentMember(of spec: PaginateSpec?, in document: JSONDocument) -> String? {
        guard let spec else { return nil }
        for name in ["path", "has-more", "total", "total-pages"] {
            if let path = spec.path(name), document.value(at: path) == nil {
                return "--paginate \(spec.style):\(name)=\(path): the first page has no member '\(path)'"
            }
        }
        return nil
    }

    /// Pages without the member `--items` names: they were read as holding no items.
    public static func absentItems(_ path: JSONPath) -> String {
        "--items \(path): a page has no member '\(path)', so it was read as holding no items"
    }

    /// The collection's stated size fell while the pass read it (``PageWalk/totalFall``): items
    /// removed ahead of the pages still to read pulled others back past them.
    public static func movedTotal(_ change: String) -> String {
        "\(change): items may have moved past the pages read (the next sync reads them)"
    }

    /// The pages read again before a removal (`SyncPass.lookAgainUntilStill`) kept finding items
    /// moved: the listing moves still, and an item no page listed may still exist.
    public static let movedWhileReadAgain =
        "the listing kept moving while its pages were read again: items no page listed are kept, after the last page (the next sync reads them)"

    /// A pass that ended unsettled (its stated total moved, a page it expected gone or empty, its
    /// pages read on demand) keeps what no page listed, put back after its last page: one of those
    /// may be an item that slid. Why it ended so is said on its own (the end's warning), so this
    /// names no cause: "the listing changed" was not always so.
    public static let keptAside =
        "items no page of this pass listed are kept, after the last page, until the next sync reads them: one may have slid past the pages read"

    /// The collection's size as its pages state it, larger than what a complete pass stored.
    public static func missingItems(statedTotal: Int?, stored: Int) -> String? {
        guard let statedTotal, statedTotal > stored else { return nil }
        return "the server states \(statedTotal) items, \(stored) are stored: some pages were not found "
            + "(name the style with --paginate)"
    }
}
