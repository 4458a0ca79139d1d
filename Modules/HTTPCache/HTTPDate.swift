import Foundation

/// HTTP-date parsing and formatting (RFC 9110 §5.6.7), without DateFormatter or locales.
///
/// Accepts the preferred IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete
/// forms (RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994`).
/// Anything else is `nil`, which callers treat as "invalid" (an invalid `Expires` means stale).
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun",
                                 "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]

    /// Parses an HTTP-date, or returns `nil` when the text is not one.
    public static func parse(_ text: String) -> Date? {
        if let date = parseIMFFixdate(text) { return date }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        switch parts.count {
        case 6 where parts[5] == "GMT":
            // IMF-fixdate: Sun 06 Nov 1994 08:49:37 GMT
            guard let day = Int(parts[1]), let month = monthNumber(parts[2]), let year = Int(parts[3]) else { return nil }
            return make(year: year, month: month, day: day, time: parts[4])
        case 4 where parts[3] == "GMT":
            // RFC 850: Sunday 06-Nov-94 08:49:37 GMT
            let dateParts = parts[1].split(separator: "-").map(String.init)
            guard dateParts.count == 3, let day = Int(dateParts[0]), let month = monthNumber(dateParts[1]),
                  let shortYear = Int(dateParts[2]) else { return nil }
            let year = dateParts[2].count == 2 ? (shortYear < 70 ? 2000 + shortYear : 1900 + shortYear) : shortYear
            return make(year: year, month: month, day: day, time: parts[2])
        case 5:
            // asctime: Sun Nov 6 08:49:37 1994
            guard let month = monthNumber(parts[1]), let day = Int(parts[2]), let year = Int(parts[4]) else { return nil }
            return make(year: year, month: month, day: day, time: parts[3])
        default:
            return nil
        }
    }

    /// The fast path for the form servers send: `Sun, 06 Nov 1994 08:49:37 GMT`, read byte by
    /// byte without splitting into strings.
    private static func parseIMFFixdate(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[25] == UInt8(ascii: " "),
                  bytes[26] == UInt8(ascii: "G"), bytes[27] == UInt8(ascii: "M"), bytes[28] == UInt8(ascii: "T") else { return nil }
            func number(_ start: Int, _ length: Int) -> Int? {
                var value = 0
                for index in start..<(start + length) {
                    let digit = Int(bytes[index]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let day = number(5, 2), let month = monthNumber(bytes[8], bytes[9], bytes[10]), let year = number(12, 4),
                  let hour = number(17, 2), let minute = number(20, 2), let second = number(23, 2),
                  bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"),
                  (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
            let seconds = daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    /// Formats a date as IMF-fixdate, the only form a sender may generate.
    public static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = weekdays[((days % 7) + 7) % 7]
        let monthName = months[month - 1].capitalized
        return "\(weekday), \(pad(day)) \(monthName) \(year) \(pad(secondOfDay / 3600)):\(pad(secondOfDay % 3600 / 60)):\(pad(secondOfDay % 60)) GMT"
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, UTC)

    private static func make(year: Int, month: Int, day: Int, time: String) -> Date? {
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]),
              (0...59).contains(clock[1]), (0...60).contains(clock[2]), (1...9999).contains(year) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func monthNumber(_ name: String) -> Int? {
        let bytes = Array(name.utf8)
        return bytes.count == 3 ? monthNumber(bytes[0], bytes[1], bytes[2]) : nil
    }

    /// The month of three ASCII letters, case-insensitively, without building a string.
    private static func monthNumber(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> Int? {
        let packed = UInt32(first | 0x20) << 16 | UInt32(second | 0x20) << 8 | UInt32(third | 0x20)
        return packedMonths.firstIndex(of: packed).map { $0 + 1 }
    }

    /// ``months`` as three bytes packed into one number each.
    private static let packedMonths: [UInt32] = months.map { $0.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
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
}
