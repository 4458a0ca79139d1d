/// Path arithmetic for the programs' own files, without `NSString.deletingLastPathComponent`,
/// which crashes on a one-character path (`-o a`) in the Foundation of Swift 6.3 on Linux.
public enum PathComponents {
    /// The directory `path` names an entry of: `.` for a bare name, `/` for an entry of the
    /// root; trailing slashes are not a component.
    public static func parent(of path: String) -> String {
        var entry = Substring(path)
        while entry.count > 1 && entry.hasSuffix("/") { entry.removeLast() }
        guard let slash = entry.lastIndex(of: "/") else { return "." }
        var parent = entry[..<slash]
        while parent.hasSuffix("/") { parent.removeLast() }
        return parent.isEmpty ? "/" : String(parent)
    }
}
