// Read Characteristic Value / Read Characteristic Descriptor, and Read Long of either.
import OCBCore
import OCBATT

/// Read Characteristic Value (Core v5.4 Vol 3 Part G §4.8.1) or Read Characteristic Descriptor (§4.12.1):
/// one Read Request; with `long`, Read Long Characteristic Values (§4.8.3) or Read Long Characteristic
/// Descriptors (§4.12.2): the Read Request's part, then Read Blob Requests at the offset read so far.
///
/// A long read ends on a part shorter than ATT_MTU-1 bytes, on Attribute Not Long or Invalid Offset for a
/// Read Blob (the value ended exactly at a part boundary), or at 512 bytes, the longest attribute value
/// (Vol 3 Part F §3.2.9).
struct GATTRead: GATTProcedure {
    /// The handle read.
    let handle: AttributeHandle
    /// Read Blob until the end of the value.
    let long: Bool
    /// ATT_MTU when the procedure started.
    let mtu: Int
    /// The bytes read so far (also after a failure).
    private(set) var value: [UInt8] = []

    init(handle: AttributeHandle, long: Bool, mtu: Int) {
        self.handle = handle
        self.long = long
        self.mtu = mtu
    }

    mutating func start() -> GATTStep<[UInt8]> {
        guard handle != 0 else { return .failed(.invalidRequest("read of handle 0x0000")) }
        return .send(.read(handle: handle))
    }

    mutating func receive(_ response: GATTResponse) -> GATTStep<[UInt8]> {
        switch response {
        case .read(let part):
            value += part
            guard long, part.count >= mtu - 1, value.count < 512, let offset = UInt16(exactly: value.count) else {
                return .finished(value)
            }
            return .send(.readBlob(handle: handle, offset: offset))
        case .error(.attributeNotLong, _) where !value.isEmpty, .error(.invalidOffset, _) where !value.isEmpty:
            return .finished(value)
        default:
            return unexpected(response)
        }
    }
}
