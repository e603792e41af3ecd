// The typed fault found in advertising data: what is wrong and at which offset.

/// A fault in advertising data (Core v5.4 Vol 3 Part C §11): thrown in strict mode, listed as a diagnostic in
/// lenient mode.
public struct AdvertisingDataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Hashable, Sendable {
        /// The structure's Length octet announces `length` octets but only `available` follow it; the structure and
        /// everything after it are dropped. `offset` is that of the Length octet.
        case truncatedStructure(length: Int, available: Int)
        /// The data of a structure of AD type `type` has a length its format does not allow; the structure is kept
        /// as ``AdvertisingStructure/raw(type:data:)``. `offset` is that of the Length octet.
        case invalidLength(type: UInt8, length: Int)
        /// A list of UUIDs or addresses of AD type `type` ends with `count` octets that are not a whole element;
        /// the whole elements are kept, the remainder is dropped. `offset` is that of the first remainder octet.
        case malformedRemainder(type: UInt8, count: Int)
        /// Manufacturer Specific Data with fewer than 2 octets, so no company identifier; kept raw.
        case missingCompanyID(length: Int)
        /// A URI that is empty or not UTF-8; kept raw.
        case invalidURI
    }

    /// What is wrong.
    public let kind: Kind
    /// Offset in the advertising data, as documented per ``Kind``.
    public let offset: Int

    /// Makes the error.
    public init(kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        switch kind {
        case .truncatedStructure(let length, let available):
            "AD structure at offset \(offset) announces \(length) octets, \(available) available"
        case .invalidLength(let type, let length):
            "AD structure at offset \(offset): \(length) data octets do not fit \(ADType(rawValue: type))"
        case .malformedRemainder(let type, let count):
            "\(ADType(rawValue: type)): \(count) trailing octet(s) at offset \(offset) are not a whole element"
        case .missingCompanyID(let length):
            "Manufacturer Specific Data at offset \(offset) has \(length) octet(s), no company identifier"
        case .invalidURI:
            "URI at offset \(offset) is empty or not UTF-8"
        }
    }
}
