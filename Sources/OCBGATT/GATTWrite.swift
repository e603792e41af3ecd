// Write Characteristic Value / Write Characteristic Descriptor: one Write Request.
import OCBCore
import OCBATT

/// Write Characteristic Value (Core v5.4 Vol 3 Part G §4.9.3) or Write Characteristic Descriptor (§4.12.3),
/// also the CCCD write that enables or disables notifications and indications: one Write Request of at most
/// ATT_MTU-3 value bytes, ended by the Write Response.
struct GATTWrite: GATTProcedure {
    let handle: AttributeHandle
    let value: [UInt8]
    let mtu: Int

    mutating func start() -> GATTStep<Void> {
        guard handle != 0 else { return .failed(.invalidRequest("write of handle 0x0000")) }
        guard value.count <= mtu - 3 else { return .failed(.valueTooLong(length: value.count, maximum: mtu - 3)) }
        return .send(.write(handle: handle, value: value))
    }

    mutating func receive(_ response: GATTResponse) -> GATTStep<Void> {
        guard case .write = response else { return unexpected(response) }
        return .finished(())
    }
}
