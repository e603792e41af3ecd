// Helpers for the L2CAP tests: hex vectors to ACL packets.

import OCBCore
import OCBHCI

/// Bytes from a hex vector as written in Fixtures/vectors/field-inputs.md.
func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

/// Decodes an H4-framed ACL packet ("02 ..."), stripping the indicator.
func aclPacket(h4 text: String) throws -> HCIACLDataPacket {
    try HCIACLDataPacket(bytes: Array(hex(text).dropFirst()))
}
