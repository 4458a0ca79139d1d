import Foundation
import HTTPFields
import Testing

@Suite("HTTP dates")
struct HTTPDateTests {
    let reference = Date(timeIntervalSince1970: 784_111_777) // Sun, 06 Nov 1994 08:49:37 GMT

    @Test func parsesAllThreeFormats() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == reference)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: reference) == reference)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == reference)
        #expect(HTTPDate.parse("Sun Nov 06 08:49:37 1994") == reference)
        #expect(HTTPDate.parse("  Sun, 06 Nov 1994 08:49:37 GMT\t") == reference)
    }

    @Test func formatsIMFFixdate() {
        #expect(HTTPDate.format(reference) == "Sun, 06 Nov 1994 08:49:37 GMT")
        let leapDay = Date(timeIntervalSince1970: 1_709_164_800) // 2024-02-29
        #expect(HTTPDate.format(leapDay) == "Thu, 29 Feb 2024 00:00:00 GMT")
        #expect(HTTPDate.parse(HTTPDate.format(leapDay)) == leapDay)
        let beforeEpoch = Date(timeIntervalSince1970: -1)
        #expect(HTTPDate.format(beforeEpoch) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    /// RFC 9110 §5.6.7: a two-digit year more than 50 years ahead belongs to the century before.
    @Test func readsTwoDigitYearsWithinFiftyYears() throws {
        let now = try #require(HTTPDate.parse("Mon, 23 Nov 2026 00:00:00 GMT"))
        #expect(HTTPDate.parse("Thursday, 18-Aug-50 02:01:18 GMT", now: now) == HTTPDate.parse("Thu, 18 Aug 2050 02:01:18 GMT"))
        #expect(HTTPDate.parse("Thursday, 18-Aug-2050 02:01:18 GMT", now: now) == nil)
        #expect(HTTPDate.parse("Thursday, 18-Aug-77 02:01:18 GMT", now: now) == HTTPDate.parse("Thu, 18 Aug 1977 02:01:18 GMT"))
    }

    /// The malformed `Expires` values of the HTTP cache conformance suite, and the case rule:
    /// HTTP-date is case-sensitive, so every part is refused in the wrong case alike.
    @Test(arguments: [
        "Thu 18 Aug 2050 02:01:18 GMT",      // missing comma
        "Thu, 18  Aug  2050 02:01:18 GMT",   // several spaces
        "Thu, 18-Aug-2050 02:01:18 GMT",     // dashes in an IMF-fixdate
        "Thu, 18 Aug 2050 2:01:18 GMT",      // one-digit hour
        "Thu, 18 Aug 2050 02.01.18 GMT",     // time with periods
        "Thu, 18 Aug 2050 02:01:18 UTC",     // zone other than GMT
        "Thu, 18 Aug 50 02:01:18 GMT",       // two-digit year in an IMF-fixdate
        "Fri, 18 Aug 2050 02:01:18 GMT",     // weekday that is not the date's
        "THU, 18 Aug 2050 02:01:18 GMT",     // wrong case: weekday
        "Thu, 18 AUG 2050 02:01:18 GMT",     // wrong case: month
        "Thu, 18 aug 2050 02:01:18 GMT",
        "Thu, 18 Aug 2050 02:01:18 gMT",     // wrong case: zone
        "Thu, 31 Feb 2050 02:01:18 GMT",     // a day the month does not have
        "Sun Nov 6 08:49:37 1994",           // asctime day needs two characters
        "sunday, 06-Nov-94 08:49:37 GMT",
        "0", "-1", "yesterday", "",
        "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT",
    ])
    func refusesWhatIsNotAnHTTPDate(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func acceptsALeapSecond() {
        #expect(HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT") == HTTPDate.parse("Sun, 01 Jan 2017 00:00:00 GMT"))
    }
}
