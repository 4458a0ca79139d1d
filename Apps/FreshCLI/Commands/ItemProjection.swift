import Foundation
import JSON

/// `--fields` in JSON Lines and JSON: an item cut down to the chosen members, as an object whose
/// names are the paths (`{"id":1,"user.login":"kim"}`); a member the item lacks is `null`.
struct ItemProjection {
    let paths: [JSONPath]
    /// `"path":` for each path, JSON-escaped once rather than once per item.
    private let names: [String]

    init(_ paths: [JSONPath]) {
        self.paths = paths
        names = paths.map { path in
            let quoted = try? JSONSerialization.data(withJSONObject: path.description, options: .fragmentsAllowed)
            return quoted.map { String(decoding: $0, as: UTF8.self) + ":" } ?? "\"\":"
        }
    }

    /// The object `json` (one stored item) becomes.
    func json(of json: String) -> String {
        let document = try? JSONDocument(Data(json.utf8), recordedDepth: paths.map(\.components.count).max() ?? 1)
        let members = zip(names, paths).map { name, path in name + (document?.value(at: path)?.rawText ?? "null") }
        return "{" + members.joined(separator: ",") + "}"
    }
}
