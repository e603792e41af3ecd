// Advertising data (or scan response data): the raw octets and the AD structures parsed from them.
import OCBCore

/// The advertising data or scan response data of one advertisement (Core v5.4 Vol 3 Part C §11).
///
/// Layout: a sequence of AD structures, each Length (1 octet) | AD Type (1 octet) | data (Length - 1 octets).
/// A Length of 0 (padding, as legacy 31-octet payloads carry) ends the data quietly. Legacy payloads hold up
/// to 31 octets, extended ones up to 1650; any length is accepted.
public struct AdvertisingData: Hashable, Sendable {
    /// The octets as received (or as encoded from ``structures``).
    public let bytes: [UInt8]
    /// The AD structures, in order; unknown types as ``AdvertisingStructure/raw(type:data:)``.
    public let structures: [AdvertisingStructure]
    /// Faults found in lenient mode (always empty after a strict parse).
    public let diagnostics: [AdvertisingDataError]

    /// Parses in lenient mode: never throws; faults end up in ``diagnostics``.
    public init(bytes: [UInt8]) {
        let (structures, diagnostics) = Self.parse(bytes, stopAtFirstFault: false)
        self.bytes = bytes
        self.structures = structures
        self.diagnostics = diagnostics
    }

    /// Parses in `mode`. Throws ``AdvertisingDataError`` (kind and offset) at the first fault in ``ParsingMode/strict``;
    /// in ``ParsingMode/lenient`` it never throws.
    public init(bytes: [UInt8], mode: ParsingMode) throws(AdvertisingDataError) {
        let (structures, diagnostics) = Self.parse(bytes, stopAtFirstFault: mode == .strict)
        if mode == .strict, let first = diagnostics.first { throw first }
        self.bytes = bytes
        self.structures = structures
        self.diagnostics = diagnostics
    }

    /// Builds advertising data from structures; ``bytes`` is their encoding, in order.
    public init(structures: [AdvertisingStructure]) {
        self.structures = structures
        self.bytes = structures.flatMap(\.bytes)
        self.diagnostics = []
    }

    /// Data with no structures.
    public static let empty = AdvertisingData(structures: [])

    static func parse(_ bytes: [UInt8], stopAtFirstFault: Bool) -> ([AdvertisingStructure], [AdvertisingDataError]) {
        var structures: [AdvertisingStructure] = []
        var diagnostics: [AdvertisingDataError] = []
        var offset = 0
        while offset < bytes.count {
            let length = Int(bytes[offset])
            if length == 0 { break }
            let available = bytes.count - offset - 1
            guard length <= available else {
                diagnostics.append(AdvertisingDataError(kind: .truncatedStructure(length: length, available: available), offset: offset))
                break
            }
            let type = bytes[offset + 1]
            let data = Array(bytes[(offset + 2)..<(offset + 1 + length)])
            let (structure, issues) = AdvertisingStructure.decode(type: type, data: data, offset: offset)
            diagnostics += issues
            if stopAtFirstFault && !issues.isEmpty { break }
            structures.append(structure)
            offset += 1 + length
        }
        return (structures, diagnostics)
    }
}
