/// One exercise of the large `/exercises` document.
public struct Exercise: Codable, Hashable, Sendable, Identifiable {
    public var id: Int
    public var name: String
    public var muscle: String
    public var equipment: String
    public var instructions: String

    public init(id: Int, name: String, muscle: String, equipment: String, instructions: String) {
        self.id = id
        self.name = name
        self.muscle = muscle
        self.equipment = equipment
        self.instructions = instructions
    }
}

/// `GET /exercises`: the whole exercise database as one document that rarely changes.
public struct ExerciseDatabase: Codable, Hashable, Sendable {
    /// Incremented whenever any exercise changes.
    public var version: Int
    public var exercises: [Exercise]

    public init(version: Int, exercises: [Exercise]) {
        self.version = version
        self.exercises = exercises
    }
}
