import Foundation

/// One item of the seeded `users` collection, whose keys are strings (`usr_k3j9x0aa`) in an
/// order unrelated to when they were made, as with most real APIs' opaque ids: a created user
/// lands on any page, not only the last.
struct User: Codable, Sendable, Equatable {
    var id: String
    var name: String
    var bio: String
    var joinedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name, bio
        case joinedAt = "joined_at"
    }
}
