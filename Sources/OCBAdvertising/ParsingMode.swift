// How the advertising data parser treats faults: throw at the first, or keep going and report them.

/// How ``AdvertisingData`` treats faulty input.
public enum ParsingMode: Hashable, Sendable {
    /// Throw ``AdvertisingDataError`` at the first fault.
    case strict
    /// Keep every well-formed structure (and the whole elements of a list with a ragged end), keep structures whose
    /// data does not fit their type as raw, stop at a structure that runs past the end, and report each fault as a
    /// diagnostic. The default for scanning.
    case lenient
}
