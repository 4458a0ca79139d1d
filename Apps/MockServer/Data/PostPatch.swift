/// The body of `PATCH /posts/{id}`: a non-empty subset of the writable fields of a post.
///
/// A field given as `null` is an error, not "leave unchanged": the document says each field is
/// a string, and a patch cannot unset a required field.
struct PostPatch: Decodable, Sendable {
    var title: String?
    var body: String?
    var author: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case title, body, author
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        for key in CodingKeys.allCases where container.contains(key) {
            if try container.decodeNil(forKey: key) {
                throw DecodingError.valueNotFound(
                    String.self, .init(codingPath: [key], debugDescription: "\(key.rawValue) must be a string, not null"))
            }
        }
        title = try container.decodeIfPresent(String.self, forKey: .title)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        author = try container.decodeIfPresent(String.self, forKey: .author)
    }
}
