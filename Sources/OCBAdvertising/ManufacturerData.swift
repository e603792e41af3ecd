// Manufacturer Specific Data: a company identifier and the company's payload.
import OCBCore

/// The Manufacturer Specific Data AD structure (Core Specification Supplement Part A §1.4).
///
/// Layout: Company Identifier (2 octets, little-endian, Assigned Numbers §7), then any number of payload octets.
public struct ManufacturerData: Hashable, Sendable {
    /// The company identifier, e.g. 0x004C Apple, Inc.
    public var companyID: UInt16
    /// The octets after the company identifier (possibly none).
    public var payload: [UInt8]

    /// Makes the value.
    public init(companyID: UInt16, payload: [UInt8]) {
        self.companyID = companyID
        self.payload = payload
    }

    /// The company's name from the assigned numbers, if known.
    public var companyName: String? { AssignedNumbers.companyName(companyID) }
}
