// Discovery against the virtual peer: alpha's whole database, exactly as Tests/Peer/README.md lists it, and its cost.

import OCBCore
import OCBATT
import OCBGATT
import OCBHCI
import OCBHost
import Testing

/// Alpha's database (Tests/Peer/README.md, "GATT database of alpha"), before control 02 adds the dynamic service.
enum AlphaDatabase {
    static let services: [GATTService] = [
        GATTService(uuid: BluetoothUUID(0x1800), isPrimary: true, startHandle: 0x0001, endHandle: 0x0005),
        GATTService(uuid: BluetoothUUID(0x1801), isPrimary: true, startHandle: 0x0006, endHandle: 0x0009),
        GATTService(uuid: BluetoothUUID(0x180A), isPrimary: true, startHandle: 0x000A, endHandle: 0x0014),
        GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: 0x0015, endHandle: 0x0018),
        GATTService(uuid: BluetoothUUID(0x180D), isPrimary: true, startHandle: 0x0019, endHandle: 0x0020),
        GATTService(uuid: custom(0x0100), isPrimary: false, startHandle: 0x0021, endHandle: 0x0023),
        GATTService(uuid: BluetoothUUID(0x1804), isPrimary: false, startHandle: 0x0024, endHandle: 0x0026),
        GATTService(uuid: custom(0x0001), isPrimary: true, startHandle: 0x0027, endHandle: 0x004E),
    ]

    /// Include declarations of the test service 0x0027 (the only service with includes).
    static let includes: [AttributeHandle: [GATTIncludedService]] = [
        0x0027: [GATTIncludedService(declarationHandle: 0x0028, uuid: custom(0x0100), startHandle: 0x0021, endHandle: 0x0023),
                 GATTIncludedService(declarationHandle: 0x0029, uuid: BluetoothUUID(0x1804), startHandle: 0x0024, endHandle: 0x0026)],
    ]

    /// (declaration, value, end of the characteristic, properties, UUID) per service start handle.
    static let characteristics: [AttributeHandle: [GATTCharacteristic]] = [
        0x0001: [c(0x02, 0x03, 0x03, 0x02, BluetoothUUID(0x2A00)), c(0x04, 0x05, 0x05, 0x02, BluetoothUUID(0x2A01))],
        0x0006: [c(0x07, 0x08, 0x09, 0x20, BluetoothUUID(0x2A05))],
        0x000A: [c(0x0B, 0x0C, 0x0C, 0x02, BluetoothUUID(0x2A29)), c(0x0D, 0x0E, 0x0E, 0x02, BluetoothUUID(0x2A24)),
                 c(0x0F, 0x10, 0x10, 0x02, BluetoothUUID(0x2A25)), c(0x11, 0x12, 0x12, 0x02, BluetoothUUID(0x2A26)),
                 c(0x13, 0x14, 0x14, 0x02, BluetoothUUID(0x2A28))],
        0x0015: [c(0x16, 0x17, 0x18, 0x12, BluetoothUUID(0x2A19))],
        0x0019: [c(0x1A, 0x1B, 0x1C, 0x10, BluetoothUUID(0x2A37)), c(0x1D, 0x1E, 0x1E, 0x02, BluetoothUUID(0x2A38)),
                 c(0x1F, 0x20, 0x20, 0x08, BluetoothUUID(0x2A39))],
        0x0021: [c(0x22, 0x23, 0x23, 0x02, custom(0x0101))],
        0x0024: [c(0x25, 0x26, 0x26, 0x02, BluetoothUUID(0x2A07))],
        0x0027: [c(0x2A, 0x2B, 0x2D, 0x02, custom(0x0002)), c(0x2E, 0x2F, 0x2F, 0x02, custom(0x0003)),
                 c(0x30, 0x31, 0x32, 0x0E, custom(0x0004)), c(0x33, 0x34, 0x36, 0x8A, custom(0x0005)),
                 c(0x37, 0x38, 0x3C, 0xFF, custom(0x0006)), c(0x3D, 0x3E, 0x3F, 0x10, custom(0x0007)),
                 c(0x40, 0x41, 0x42, 0x20, custom(0x0008)), c(0x43, 0x44, 0x44, 0x0C, custom(0x0009)),
                 c(0x45, 0x46, 0x46, 0x08, custom(0x000A)), c(0x47, 0x48, 0x48, 0x02, custom(0x000B)),
                 c(0x49, 0x4A, 0x4A, 0x0A, custom(0x000C)), c(0x4B, 0x4C, 0x4C, 0x0A, custom(0x000D)),
                 c(0x4D, 0x4E, 0x4E, 0x0C, custom(0x000E))],
    ]

    /// Descriptors per characteristic declaration handle (characteristics with none left out).
    static let descriptors: [AttributeHandle: [GATTDescriptor]] = [
        0x07: [d(0x09, 0x2902)],
        0x16: [d(0x18, 0x2902)],
        0x1A: [d(0x1C, 0x2902)],
        0x2A: [d(0x2C, 0x2901), d(0x2D, 0x2904)],
        0x30: [d(0x32, 0x2901)],
        0x33: [d(0x35, 0x2900), d(0x36, 0x2901)],
        0x37: [d(0x39, 0x2900), d(0x3A, 0x2903), d(0x3B, 0x2901), d(0x3C, 0x2902)],
        0x3D: [d(0x3F, 0x2902)],
        0x40: [d(0x42, 0x2902)],
    ]

    private static func c(_ declaration: AttributeHandle, _ value: AttributeHandle, _ end: AttributeHandle, _ properties: UInt8, _ uuid: BluetoothUUID) -> GATTCharacteristic {
        GATTCharacteristic(declarationHandle: declaration, valueHandle: value, endHandle: end,
                           properties: GATTCharacteristicProperties(rawValue: properties), uuid: uuid)
    }

    private static func d(_ handle: AttributeHandle, _ uuid: UInt16) -> GATTDescriptor { GATTDescriptor(handle: handle, uuid: BluetoothUUID(uuid)) }
}

extension PeerGATTTests {
    @Test func wholeDatabaseOfAlphaIsDiscoveredExactly() throws {
        let fixture = try PeerGATT.shared.get()
        _ = try fixture.peer.send("restore")
        try fixture.withAlpha { handle in
            let cache = try fixture.discover(handle)
            #expect(cache.services.sorted { $0.startHandle < $1.startHandle } == AlphaDatabase.services)
            #expect(cache.includedServices.filter { !$0.value.isEmpty } == AlphaDatabase.includes)
            #expect(cache.characteristics == AlphaDatabase.characteristics)
            #expect(cache.descriptors.filter { !$0.value.isEmpty } == AlphaDatabase.descriptors)
        }
    }

    @Test func wholeDatabaseDiscoveryNeedsExactlyThisManyRequests() throws {
        let fixture = try PeerGATT.shared.get()
        _ = try fixture.peer.send("restore")
        try fixture.withAlpha { handle in
            let before = try sentATTRequests(fixture.capturePath)
            let result = fixture.gatt(handle) { client, done in
                client.subscribesToServiceChanged = false  // count discovery alone
                client.discoverDatabase { done($0.map(\.services.count)) }
            }
            #expect(result == .success(8))
            let requests = try sentATTRequests(fixture.capturePath).dropFirst(before.count)
            // 47 = the minimum the procedures of Core v5.4 Vol 3 Part G permit for this database at ATT_MTU 23 (measured
            // from the capture, request by request):
            // - Discover All Primary Services (§4.4.1), Read By Group Type: 16-bit entries are 6 bytes, (23 − 2) / 6 = 3
            //   per response: 1800 1801 180A | 180F 180D | 0CB10001 (a 128-bit entry fills a response) | from 0x004F:
            //   Attribute Not Found → 4.
            // - Per service (6 primary, then the 2 secondary ones its includes reveal): Find Included Services (§4.5.1),
            //   Read By Type «Include» until Attribute Not Found → 1 each, 3 for 0x0027 (its 128-bit and 16-bit includes
            //   have different lengths, so one response each) plus one Read of 0x0021 for the 128-bit included UUID
            //   (§4.5.1: the include declaration carries no 128-bit UUID) → 7 + 3 + 1 = 11.
            // - Discover All Characteristics (§4.6.1), Read By Type «Characteristic» (16-bit: 7 bytes, 3 per response;
            //   128-bit: 21 bytes, 1 per response), ending early when a value handle is the service's end handle (no room
            //   for another declaration): 0x1800 1, 0x1801 2, 0x180A 2, 0x180F 2, 0x180D 1, 0x0027 13, 0x0021 1, 0x0024 1 → 23.
            // - Discover All Characteristic Descriptors (§4.7.1), Find Information over each characteristic's spare
            //   handles (only characteristics with room), one response each (4-byte entries, 5 per response) → 9.
            // 4 + 11 + 23 + 9 = 47. Fewer would skip a request the spec needs to know the database is complete.
            #expect(requests.count == Self.discoveryRequestCount, "requests: \(requests.map { String(format: "%02X", $0) })")
        }
    }

    static let discoveryRequestCount = 47
}

/// The opcodes of the ATT requests the host sent, from its btsnoop capture: the first ACL fragment of each basic frame
/// on CID 0x0004 (Core v5.4 Vol 3 Part A §3.1) whose opcode is a client request (Vol 3 Part F §3.4.8).
func sentATTRequests(_ path: String) throws -> [UInt8] {
    let file = try CaptureFile.read(path: path)
    let requests: Set<UInt8> = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20]
    return file.records.compactMap { record -> UInt8? in
        guard record.direction == .sent, let packet = record.packet, packet.type == .acl,
              let acl = try? HCIACLDataPacket(bytes: packet.bytes), acl.packetBoundary != .continuing else { return nil }
        let data = acl.data
        guard data.count >= 5, data[2] == 0x04, data[3] == 0x00, requests.contains(data[4]) else { return nil }
        return data[4]
    }
}

