import HTTPCache
import Testing

@Suite("Cache-Control parsing")
struct CacheControlTests {
    @Test func readsCommonResponseDirectives() {
        let directives = CacheControl("public, max-age=60, must-revalidate, stale-while-revalidate=30, stale-if-error=600")
        #expect(directives.maxAge == 60)
        #expect(directives.isPublic)
        #expect(directives.mustRevalidate)
        #expect(directives.staleWhileRevalidate == 30)
        #expect(directives.staleIfError == 600)
        #expect(!directives.noStore)
    }

    @Test func namesAreCaseInsensitiveAndWhitespaceTolerant() {
        let directives = CacheControl("  MAX-AGE=10 ,No-Store,\tIMMUTABLE ")
        #expect(directives.maxAge == 10)
        #expect(directives.noStore)
        #expect(directives.immutable)
    }

    @Test func quotedValuesMayContainCommas() {
        let directives = CacheControl(#"no-cache="Set-Cookie, X-Token", max-age=5"#)
        #expect(directives.value(of: "no-cache") == "Set-Cookie, X-Token")
        #expect(directives.maxAge == 5)
    }

    @Test func quotedDeltaSecondsAreAccepted() {
        #expect(CacheControl(#"max-age="120""#).maxAge == 120)
    }

    @Test func invalidMaxAgeMeansStale() {
        #expect(CacheControl("max-age=abc").maxAge == 0)
        #expect(CacheControl("max-age=-5").maxAge == 0)
        #expect(CacheControl("max-age").maxAge == 0)
        #expect(CacheControl("max-age=1.5").maxAge == 0)
    }

    @Test func conflictingDuplicatesMeanStaleButIdenticalOnesAreFine() {
        #expect(CacheControl(fieldValues: ["max-age=60", "max-age=10"]).maxAge == 0)
        #expect(CacheControl(fieldValues: ["max-age=60", "max-age=60"]).maxAge == 60)
    }

    @Test func hugeValuesAreClampedToTheRFCCeiling() {
        #expect(CacheControl("max-age=99999999999999999999999").maxAge == DeltaSeconds.ceiling)
        #expect(CacheControl("max-age=\(String(repeating: "9", count: 5000))").maxAge == DeltaSeconds.ceiling)
    }

    @Test func unknownAndMalformedDirectivesAreIgnored() {
        let directives = CacheControl(#"x-custom="a,b", =broken, ,, max-age=7, "quoted-name""#)
        #expect(directives.maxAge == 7)
        #expect(directives.contains("x-custom"))
        #expect(!directives.contains(""))
    }

    @Test func invalidStaleExtensionsAreDisabledRatherThanGuessed() {
        #expect(CacheControl("stale-while-revalidate=soon").staleWhileRevalidate == nil)
        #expect(CacheControl("stale-if-error").staleIfError == nil)
    }

    @Test func readsRequestDirectives() {
        #expect(CacheControl("max-stale").maxStale == .unlimited)
        #expect(CacheControl("max-stale=30").maxStale == .seconds(30))
        #expect(CacheControl("min-fresh=20").minFresh == 20)
        #expect(CacheControl("only-if-cached").onlyIfCached)
        #expect(MaxStale.seconds(30).accepts(staleness: 30))
        #expect(!MaxStale.seconds(30).accepts(staleness: 31))
    }

    @Test func unterminatedQuoteDoesNotCrash() {
        let directives = CacheControl(#"no-cache="abc, max-age=3"#)
        #expect(directives.noCache)
    }
}
