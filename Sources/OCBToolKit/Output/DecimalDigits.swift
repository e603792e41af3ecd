// Decimal digits appended to a byte buffer without making a String: the one digit writer of cbtool's JSON lines and timestamps.

/// Appends `value` in decimal to `out`, zero-padded to at least `width` digits: the places made first, then each digit
/// written into its own from the last (no `String` made; reversing a slice of the array in place would copy the array).
/// `appendDecimal(7, width: 3)` appends "007"; `appendDecimal(1234)` appends "1234".
func appendDecimal(_ value: UInt64, width: Int = 1, to out: inout [UInt8]) {
    var count = 1
    var probe = value
    while probe >= 10 { probe /= 10; count += 1 }
    out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(width, count)))
    var rest = value
    var index = out.count - 1
    while rest > 0 {
        out[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
        index -= 1
    }
}
