// ByteWriter helpers for ATT PDUs: handle ranges of discovery requests and UUID fields.

import OCBCore

extension ByteWriter {
    /// Appends Starting Handle and Ending Handle (2 bytes each), as discovery requests carry them (Vol 3 Part F §3.4.3, §3.4.4).
    mutating func writeRange(opcode: ATTOpcode, _ start: AttributeHandle, _ end: AttributeHandle) {
        write(opcode.rawValue)
        write(start)
        write(end)
    }

    /// Appends a UUID as an ATT PDU carries it: 2 bytes when it has a 16-bit form, else 16 (Vol 3 Part F §3.2.1).
    mutating func writeATTUUID(_ uuid: BluetoothUUID) {
        write(contentsOf: uuid.littleEndianBytes(width: uuid.uuid16 != nil ? 2 : 16) ?? [])
    }
}
