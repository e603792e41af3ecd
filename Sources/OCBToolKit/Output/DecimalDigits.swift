// Decimal digits appended to a line buffer without making a String: the one digit writer of cbtool's JSON lines and timestamps.

/// Appends `value` in decimal to `out`, zero-padded to at least `width` digits (at most 20 places are padded): each
/// digit written into its place from the last, no `String` made. `appendDecimal(7, width: 3)` appends "007";
/// `appendDecimal(1234)` appends "1234".
func appendDecimal(_ value: UInt64, width: Int = 1, to out: inout LineBuffer) {
    var digits = 1
    var probe = value
    while probe >= 10 { probe /= 10; digits += 1 }
    let places = max(digits, min(width, 20))
    out.append(atMost: places) { room in
        var rest = value
        var place = places
        while place > 0 {
            place -= 1
            room[place] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        return places
    }
}

/// Appends `value` in decimal as `String(value)` spells it (a minus sign, no leading zeros), without making the string.
func appendDecimal(_ value: Int64, to out: inout LineBuffer) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    appendDecimal(value.magnitude, to: &out)
}
