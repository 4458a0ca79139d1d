import SyncOrchestration
import Testing

@Suite("A watch's schedule")
struct WatchScheduleTests {
    let start = ContinuousClock.now

    @Test func withoutAnIntervalACollectionIsDueWhenItsFirstPageGoesStale() {
        var schedule = WatchSchedule(interval: nil)
        #expect(schedule.isDue("posts", at: start))
        schedule.synced("posts", freshFor: .seconds(90), at: start)
        #expect(!schedule.isDue("posts", at: start + .seconds(89)))
        #expect(schedule.isDue("posts", at: start + .seconds(90)))
        // No lifetime (max-age=0, no-cache): a minute; a lifetime is held within 5 s … 1 h.
        schedule.synced("users", freshFor: nil, at: start)
        schedule.synced("tags", freshFor: .seconds(1), at: start)
        schedule.synced("logs", freshFor: .seconds(86_400), at: start)
        #expect(schedule.next(of: ["users"], after: start) == start + WatchSchedule.unknownLifetime)
        #expect(schedule.next(of: ["tags"], after: start) == start + WatchSchedule.shortest)
        #expect(schedule.next(of: ["logs"], after: start) == start + WatchSchedule.longest)
        #expect(schedule.next(of: ["posts", "users", "tags"], after: start) == start + WatchSchedule.shortest)
    }

    @Test func anIntervalGivenIsKeptWhateverThePagesSay() {
        var schedule = WatchSchedule(interval: .seconds(30))
        schedule.synced("posts", freshFor: .seconds(600), at: start)
        #expect(schedule.next(of: ["posts"], after: start) == start + .seconds(30))
        #expect(schedule.next(of: ["never-synced"], after: start) == start + .seconds(30))
    }

    @Test func aFailureIsTriedAgainNoSoonerThanTheServerSaid() {
        var schedule = WatchSchedule(interval: .seconds(30))
        schedule.failed("posts", retryAfter: .seconds(600), at: start)
        schedule.failed("users", retryAfter: nil, at: start)
        #expect(schedule.next(of: ["posts"], after: start) == start + .seconds(600))
        #expect(schedule.next(of: ["users"], after: start) == start + .seconds(30))
    }
}
