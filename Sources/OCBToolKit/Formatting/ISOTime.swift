// ISO 8601 UTC timestamps with milliseconds, the one time format of every cbtool JSON line.

/// Formats a time as ISO 8601 / RFC 3339 UTC with milliseconds: "2019-03-10T13:11:19.707Z".
///
/// Shape: `YYYY-MM-DDTHH:MM:SS.mmmZ` in the proleptic Gregorian calendar; years outside 0000-9999 (a capture's
/// timestamps are outside input) use the ISO 8601 expanded form with a sign and six digits ("+292277-…", "-000001-…").
/// Sub-millisecond digits are dropped (rounded down, also before 1970), so every Int64 formats without trapping.
public enum ISOTime {
    /// The time `microseconds` after 1970-01-01T00:00:00Z (negative: before it).
    public static func string(microsecondsSince1970 microseconds: Int64) -> String {
        var out = LineBuffer(capacity: 32)
        write(microsecondsSince1970: microseconds, into: &out)
        return out.text
    }

    /// Appends ``string(microsecondsSince1970:)``'s text to `out` without making the string (a scan's JSON line).
    public static func write(microsecondsSince1970 microseconds: Int64, into out: inout LineBuffer) {
        let perDay: Int64 = 86_400_000_000
        // Floor division: the day and the microseconds into it (0..<perDay) also for negative times.
        var days = microseconds / perDay
        var intoDay = microseconds % perDay
        if intoDay < 0 { days -= 1; intoDay += perDay }
        let (year, month, day) = civil(daysSince1970: days)
        let millis = intoDay / 1000
        if (0...9999).contains(year) {
            appendDecimal(year.magnitude, width: 4, to: &out)
        } else {
            out.append(year < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            appendDecimal(year.magnitude, width: 6, to: &out)
        }
        out.append(UInt8(ascii: "-")); appendDecimal(month.magnitude, width: 2, to: &out)
        out.append(UInt8(ascii: "-")); appendDecimal(day.magnitude, width: 2, to: &out)
        out.append(UInt8(ascii: "T")); appendDecimal((millis / 3_600_000).magnitude, width: 2, to: &out)
        out.append(UInt8(ascii: ":")); appendDecimal((millis / 60_000 % 60).magnitude, width: 2, to: &out)
        out.append(UInt8(ascii: ":")); appendDecimal((millis / 1000 % 60).magnitude, width: 2, to: &out)
        out.append(UInt8(ascii: ".")); appendDecimal((millis % 1000).magnitude, width: 3, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// Year, month (1-12), day (1-31) of a day count from 1970-01-01 (H. Hinnant's civil_from_days; |days| < 2^40).
    static func civil(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
