import Foundation
import Models

/// The deterministic contents of every resource, derived from one seed.
///
/// Each collection draws from its own stream (the seed mixed with a per-collection constant),
/// so `--posts 500` does not change the articles, and the same seed always gives the same bytes.
struct SeedData: Sendable {
    /// `2024-01-01T00:00:00Z`: every seeded timestamp is this plus whole seconds.
    static let epoch = Date(timeIntervalSince1970: 1_704_067_200)

    /// Made when they are asked for (``GeneratedPosts``): `--posts` may be ten million.
    var posts: GeneratedPosts
    var articles: [Article]
    var feed: [FeedItem]
    var users: [User]
    var exercises: ExerciseDatabase
    /// The entries of `/news`, oldest first (it lists them newest first).
    var news: [Post]
    /// Seed of the entries added to `/news` while it is listed.
    var newsSeed: UInt64
    /// Seed of the simulated changes of `/_admin/tick`.
    var tickSeed: UInt64
    /// Seed of the string keys made up for created items.
    var keySeed: UInt64

    /// - Parameter hostileText: one post (and one news entry) in three gets a title from ``HostileText``.
    init(seed: UInt64, postCount: Int, articleCount: Int, feedCount: Int, userCount: Int, exerciseCount: Int, newsCount: Int = 0,
         hostileText: Bool = false) {
        posts = GeneratedPosts(seed: seed ^ 0x0000_0000_0050_5354, count: postCount, hostileText: hostileText)
        news = Self.posts(seed: seed ^ 0x0000_0000_4E45_5753, count: newsCount, hostileText: hostileText)
        newsSeed = seed ^ 0x0000_004E_4557_4152
        articles = Self.articles(seed: seed ^ 0x0000_0000_4152_5443, count: articleCount)
        feed = Self.feed(seed: seed ^ 0x0000_0000_4645_4544, count: feedCount)
        users = Self.users(seed: seed ^ 0x0000_0000_5553_4552, count: userCount)
        exercises = Self.exercises(seed: seed ^ 0x0000_0000_4558_4552, count: exerciseCount)
        tickSeed = seed ^ 0x0000_0000_5449_434B
        keySeed = seed ^ 0x0000_0000_004B_4559
    }

    // MARK: Collections

    /// Posts 1…count, each updated an hour after the previous one plus a seeded jitter.
    static func posts(seed: UInt64, count: Int, hostileText: Bool = false) -> [Post] {
        var text = TextGenerator(seed: seed)
        return (0..<count).map { index in GeneratedPosts.post(index + 1, from: &text, hostileText: hostileText) }
    }

    /// Articles 1…count, published a day apart.
    static func articles(seed: UInt64, count: Int) -> [Article] {
        var text = TextGenerator(seed: seed)
        return (0..<count).map { index in
            let id = index + 1
            return Article(id: id, title: text.title(), summary: text.paragraph(sentences: 2),
                           publishedAt: epoch.addingTimeInterval(TimeInterval(id * 86_400 + text.number(below: 86_400))))
        }
    }

    /// Feed entries 1…count of a few kinds.
    static func feed(seed: UInt64, count: Int) -> [FeedItem] {
        var text = TextGenerator(seed: seed)
        let kinds = ["post", "comment", "like", "follow", "announcement"]
        return (0..<count).map { index in
            FeedItem(id: index + 1, kind: text.pick(kinds), text: text.paragraph(sentences: 1))
        }
    }

    /// Users with distinct random string ids (`usr_` and eight base-36 characters), joined an
    /// hour apart; their id order is unrelated to that.
    static func users(seed: UInt64, count: Int) -> [User] {
        var text = TextGenerator(seed: seed)
        var keys = SplitMix64(seed: seed ^ 0x5EED)
        var taken = Set<String>()
        return (0..<count).map { index in
            var id: String
            repeat { id = "usr_" + ItemCollection.randomText(length: 8, using: &keys) } while !taken.insert(id).inserted
            return User(id: id, name: text.author(), bio: text.paragraph(sentences: 1),
                        joinedAt: epoch.addingTimeInterval(TimeInterval((index + 1) * 3600)))
        }
    }

    /// The exercise database: `count` exercises with long bilingual instructions (about 1 MB at 2,500).
    static func exercises(seed: UInt64, count: Int) -> ExerciseDatabase {
        var text = TextGenerator(seed: seed)
        let moves = ["스쿼트 Squat", "데드리프트 Deadlift", "벤치 프레스 Bench press", "플랭크 Plank", "런지 Lunge",
                     "풀업 Pull-up", "로우 Row", "버피 Burpee", "힙 쓰러스트 Hip thrust", "크런치 Crunch"]
        let variants = ["Classic", "Tempo", "Paused", "Single-leg", "Wide", "Close-grip", "Banded", "Weighted"]
        let muscles = ["legs 하체", "back 등", "chest 가슴", "core 코어", "shoulders 어깨", "arms 팔", "glutes 둔근"]
        let equipment = ["barbell 바벨", "dumbbell 덤벨", "kettlebell 케틀벨", "bodyweight 맨몸", "cable 케이블", "band 밴드"]
        let steps = [
            "Brace your core and keep a neutral spine.", "허리를 곧게 펴고 복부에 힘을 주세요.",
            "Lower slowly for three seconds, then drive up.", "천천히 3초 동안 내려갔다가 힘 있게 올라옵니다.",
            "Breathe out on the effort.", "힘을 쓸 때 숨을 내쉬세요.",
            "Keep your knees in line with your toes.", "무릎이 발끝과 같은 방향을 향하게 하세요.",
            "Rest 90 seconds between sets.", "세트 사이에 90초 쉬세요.",
            "Stop if you feel sharp pain. 🛑", "날카로운 통증이 느껴지면 멈추세요.",
        ]
        let exercises = (0..<count).map { index in
            Exercise(
                id: index + 1,
                name: "\(text.pick(variants)) \(text.pick(moves)) #\(index + 1)",
                muscle: text.pick(muscles),
                equipment: text.pick(equipment),
                instructions: (0..<(5 + text.number(below: 4))).map { _ in text.pick(steps) }.joined(separator: " ")
            )
        }
        return ExerciseDatabase(version: 1, exercises: exercises)
    }
}
