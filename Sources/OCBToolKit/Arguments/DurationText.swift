// Reads durations written on the command line: "10", "2.5s", "500ms", "2m".

/// Parses a command-line duration.
public enum DurationText {
    /// Parses `text`: a non-negative decimal number of seconds, optionally suffixed `s`, `ms` or `m` (minutes).
    /// Returns nil for anything else (negative, empty, not a number, more than a day).
    public static func parse(_ text: String) -> Duration? {
        var number = Substring(text)
        var scale = 1.0
        if number.hasSuffix("ms") {
            number = number.dropLast(2); scale = 0.001
        } else if number.hasSuffix("s") {
            number = number.dropLast()
        } else if number.hasSuffix("m") {
            number = number.dropLast(); scale = 60
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(number), value.isFinite, value >= 0 else { return nil }
        let seconds = value * scale
        guard seconds <= 86_400 else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
