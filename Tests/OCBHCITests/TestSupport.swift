// Test helpers: hex literals and H4-framed event vectors as written in field-inputs.md.

import OCBCore
import OCBHCI

/// Bytes from a hex literal written as in field-inputs.md (spaces allowed); empty if malformed (the test then fails on values).
func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

/// Decodes an H4-framed event (first byte 0x04) from hex.
func event(_ text: String) throws -> HCIEvent {
    let bytes = hex(text)
    return try HCIEvent(packet: HCIPacket(type: .event, bytes: Array(bytes.dropFirst())))
}

/// The LE Meta subevent of an H4-framed event, or nil.
func leMeta(_ text: String) throws -> LEMetaEvent? {
    if case .leMeta(let meta) = try event(text) { return meta }
    return nil
}
