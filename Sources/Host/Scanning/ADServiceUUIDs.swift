// The service UUIDs listed in AD structures, for the scan's service filter (until the Advertising module offers the parse).

import BluetoothCore

/// Finds the service UUIDs a device advertises in its AD structures.
///
/// AD structure layout (Core v5.4 Vol 3 Part C §11): `Length (1) | AD Type (1) | Data (Length - 1)`, repeated; a
/// zero Length ends the data early. Service UUID lists (Supplement to the Core Specification Part A §1.1):
/// 0x02/0x03 incomplete/complete 16-bit, 0x04/0x05 32-bit, 0x06/0x07 128-bit, little-endian.
/// Malformed input never traps: a structure running past the end, or a list whose length is not a multiple of
/// the UUID width, contributes only its whole UUIDs.
public enum ADServiceUUIDs {
    /// The UUIDs from every service UUID list in `data` (an empty set when none).
    @Sendable public static func extract(_ data: [UInt8]) -> Set<BluetoothUUID> {
        var uuids = Set<BluetoothUUID>()
        var reader = ByteReader(data)
        while !reader.isAtEnd {
            guard let length = try? reader.readUInt8(), length > 0 else { break }
            guard let type = try? reader.readUInt8() else { break }
            let body = (try? reader.readBytes(Int(length) - 1)) ?? reader.readRemaining()
            let width: Int
            switch type {
            case 0x02, 0x03: width = 2
            case 0x04, 0x05: width = 4
            case 0x06, 0x07: width = 16
            default: continue
            }
            var index = 0
            while index + width <= body.count {
                if let uuid = BluetoothUUID(littleEndianBytes: Array(body[index..<(index + width)])) { uuids.insert(uuid) }
                index += width
            }
        }
        return uuids
    }
}
