import Foundation

/// HTTP dates (RFC 9110 §5.6.7), parsed and formatted without DateFormatter or locales.
///
/// Parsing accepts exactly the three forms of the grammar (IMF-fixdate, RFC 850, asctime: see
/// ``DateReader``) and nothing near them. The grammar is case-sensitive, so `nov` or `gMT` is
/// refused, as are a day the month does not have and a weekday that is not the date's. Callers
/// treat `nil` as invalid: an invalid `Expires` means already expired (RFC 9111 §5.3).
public enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let longWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date `text` names (surrounding spaces and tabs aside), or `nil` for no HTTP-date.
    public static func parse(_ text: String) -> Date? { parse(text, now: Date.init) }
    /// ``parse(_:)`` with `now` as the reference for RFC 850's two-digit years.
    public static func parse(_ text: String, now: Date) -> Date? { parse(text, now: { now }) }

    private static func parse(_ text: String, now: () -> Date) -> Date? {
        var string = text
        return string.withUTF8 { bytes -> Date? in
            var start = 0
            var end = bytes.count
            while start < end, bytes[start] == .space || bytes[start] == .tab { start += 1 }
            while end > start, bytes[end - 1] == .space || bytes[end - 1] == .tab { end -= 1 }
            let reader = DateReader(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            return reader.imfFixdate() ?? reader.asctime() ?? reader.rfc850(now: now())
        }
    }

    /// `date` as IMF-fixdate, the only form a sender may generate (whole seconds, truncated).
    public static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Calendar.civil(fromDays: days)
        return "\(weekdays[Calendar.weekday(ofDays: days)]), \(pad(day)) \(months[month - 1]) \(year) "
            + "\(pad(secondOfDay / 3600)):\(pad(secondOfDay % 3600 / 60)):\(pad(secondOfDay % 60)) GMT"
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    // MARK: Reading

    /// The three grammars over one field value's bytes; IMF-fixdate is the one senders generate.
    private struct DateReader {
        let bytes: UnsafeBufferPointer<UInt8>

        /// `Sun, 06 Nov 1994 08:49:37 GMT`
        func imfFixdate() -> Date? {
            guard bytes.count == 29, let weekday = name(at: 0, length: 3, in: weekdays), literal(", ", at: 3),
                  let day = digits(at: 5, count: 2), literal(" ", at: 7), let month = name(at: 8, length: 3, in: months),
                  literal(" ", at: 11), let year = digits(at: 12, count: 4), literal(" ", at: 16),
                  let time = timeOfDay(at: 17), literal(" GMT", at: 25) else { return nil }
            return date(year: year, month: month + 1, day: day, time: time, weekday: weekday)
        }

        /// `Sunday, 06-Nov-94 08:49:37 GMT`
        func rfc850(now: Date) -> Date? {
            guard let comma = bytes.firstIndex(of: .comma), let weekday = name(at: 0, length: comma, in: longWeekdays),
                  bytes.count == comma + 24, literal(" ", at: comma + 1), let day = digits(at: comma + 2, count: 2),
                  literal("-", at: comma + 4), let month = name(at: comma + 5, length: 3, in: months),
                  literal("-", at: comma + 8), let shortYear = digits(at: comma + 9, count: 2),
                  literal(" ", at: comma + 11), let time = timeOfDay(at: comma + 12), literal(" GMT", at: comma + 20)
            else { return nil }
            return date(year: Self.fullYear(shortYear, now: now), month: month + 1, day: day, time: time, weekday: weekday)
        }

        /// `Sun Nov  6 08:49:37 1994` (the day is two digits or a space and one digit)
        func asctime() -> Date? {
            guard bytes.count == 24, let weekday = name(at: 0, length: 3, in: weekdays), literal(" ", at: 3),
                  let month = name(at: 4, length: 3, in: months), literal(" ", at: 7),
                  let day = digits(at: 8, count: 2) ?? (literal(" ", at: 8) ? digits(at: 9, count: 1) : nil),
                  literal(" ", at: 10), let time = timeOfDay(at: 11), literal(" ", at: 19),
                  let year = digits(at: 20, count: 4) else { return nil }
            return date(year: year, month: month + 1, day: day, time: time, weekday: weekday)
        }

        /// RFC 9110: a two-digit year that appears more than 50 years in the future is the most
        /// recent past year with the same last two digits.
        static func fullYear(_ shortYear: Int, now: Date) -> Int {
            let days = Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
            let currentYear = Calendar.civil(fromDays: days).year
            let candidate = currentYear - currentYear % 100 + shortYear
            return candidate > currentYear + 50 ? candidate - 100 : candidate
        }

        // MARK: Pieces

        /// `HH:MM:SS` as seconds into the day (60 allowed for a leap second).
        private func timeOfDay(at offset: Int) -> Int? {
            guard let hour = digits(at: offset, count: 2), literal(":", at: offset + 2),
                  let minute = digits(at: offset + 3, count: 2), literal(":", at: offset + 5),
                  let second = digits(at: offset + 6, count: 2),
                  hour < 24, minute < 60, second <= 60 else { return nil }
            return hour * 3600 + minute * 60 + second
        }

        /// The validated date, or `nil` when the day does not exist or the weekday is wrong.
        private func date(year: Int, month: Int, day: Int, time: Int, weekday: Int) -> Date? {
            guard (1...9999).contains(year), day >= 1, day <= Calendar.daysIn(month: month, year: year) else { return nil }
            let days = Calendar.daysFromCivil(year: year, month: month, day: day)
            guard Calendar.weekday(ofDays: days) == weekday else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + time))
        }

        private func digits(at offset: Int, count: Int) -> Int? {
            guard offset + count <= bytes.count else { return nil }
            var value = 0
            for index in offset..<(offset + count) {
                let digit = Int(bytes[index]) - 0x30
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        private func literal(_ text: StaticString, at offset: Int) -> Bool {
            let length = text.utf8CodeUnitCount
            guard offset + length <= bytes.count else { return false }
            return (0..<length).allSatisfy { bytes[offset + $0] == text.utf8Start[$0] }
        }

        /// The index in `names` of the exact, case-sensitive name at `offset`.
        private func name(at offset: Int, length: Int, in names: [String]) -> Int? {
            guard offset + length <= bytes.count else { return nil }
            let slice = UnsafeBufferPointer(rebasing: bytes[offset..<(offset + length)])
            return names.firstIndex { $0.utf8.elementsEqual(slice) }
        }
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, UTC)

    private enum Calendar {
        /// Days since 1970-01-01 (Howard Hinnant's algorithm).
        static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097 + dayOfEra - 719_468
        }

        static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
            let z = days + 719_468
            let era = (z >= 0 ? z : z - 146_096) / 146_097
            let dayOfEra = z - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let mp = (5 * dayOfYear + 2) / 153
            let day = dayOfYear - (153 * mp + 2) / 5 + 1
            let month = mp < 10 ? mp + 3 : mp - 9
            return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
        }

        /// 0 for Sunday; 1970-01-01 was a Thursday.
        static func weekday(ofDays days: Int) -> Int { ((days % 7) + 7 + 4) % 7 }

        static func daysIn(month: Int, year: Int) -> Int {
            switch month {
            case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: 30
            case 1...12: 31
            default: 0
            }
        }
    }
}
