/// The mirror as `fresh check` and a program's end see it.
public protocol MirrorMaintenance: AnyObject, Sendable {
    /// Where the store is, as messages show it (a file's path; a server address without a password).
    var location: String { get }
    /// What a consistency check finds: empty when the store is sound.
    func problems() async throws -> [String]
    /// Ends this process's use of the store (its connections); call it once, when a command is done.
    func close() async
}
