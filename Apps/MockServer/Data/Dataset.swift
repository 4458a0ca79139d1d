/// The independently changing parts of ``MockData``; a write to one invalidates only the
/// representations built from it.
enum Dataset: Hashable, Sendable {
    /// One collection, by name.
    case collection(String)
    /// The `/exercises` document.
    case exercises
    /// `/openapi.json` and `/styles`, which depend only on the configuration.
    case documentation
}
