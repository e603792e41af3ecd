// Read Using Characteristic UUID: the values of every characteristic of one type in a range, in one request.
import OCBCore
import OCBATT

/// A handle and the value read from it.
public struct GATTHandleValue: Hashable, Sendable {
    /// The attribute handle.
    public var handle: AttributeHandle
    /// The value (for Read Using Characteristic UUID at most min(ATT_MTU-4, 253) bytes, Vol 3 Part F §3.4.4.2).
    public var value: [UInt8]

    /// Makes a pair.
    public init(handle: AttributeHandle, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }
}

/// Read Using Characteristic UUID (Core v5.4 Vol 3 Part G §4.8.2): one Read By Type Request with the
/// characteristic UUID over `range`; the response's handle-value pairs are the result. Values longer than the
/// response could carry come truncated; read them whole with a long read of the handle.
struct GATTReadUsingCharacteristicUUID: GATTProcedure {
    let range: ClosedRange<AttributeHandle>
    let uuid: BluetoothUUID

    mutating func start() -> GATTStep<[GATTHandleValue]> {
        guard range.lowerBound != 0 else { return .failed(.invalidRequest("range starts at handle 0x0000")) }
        return .send(.readByType(start: range.lowerBound, end: range.upperBound, type: uuid))
    }

    mutating func receive(_ response: GATTResponse) -> GATTStep<[GATTHandleValue]> {
        guard case .readByType(let entries) = response else { return unexpected(response) }
        return .finished(entries.filter { range.contains($0.handle) }.map { GATTHandleValue(handle: $0.handle, value: $0.value) })
    }
}
