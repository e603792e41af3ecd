// The story's GATT database shows services known only from include declarations (Find Included Services).
@testable import OCBToolKit
import OCBCore
import OCBGATT
import Testing

@Suite struct IncludedServiceStoryTests {
    /// The virtual peer's alpha includes 0x0021-0x0023 (128-bit UUID 0CB10100-..., read at 0x0021 as 16 bytes) and
    /// 0x0024-0x0026 (Tx Power 0x1804, inline), both secondary services (Tests/Peer/README.md).
    @Test func includedServicesAppearAsSecondary() throws {
        var builder = PeerDatabaseBuilder(key: "C1:A0:00:00:00:01")
        builder.services = [GATTService(uuid: try #require(BluetoothUUID("0CB10001-7E57-4C0D-A9E5-0123456789AB")), isPrimary: true,
                                        startHandle: 0x0027, endHandle: 0x004E)]
        builder.includes = [
            0x0028: GATTTreeInclude(handle: 0x0028, startHandle: 0x0021, endHandle: 0x0023, uuid: nil),
            0x0029: GATTTreeInclude(handle: 0x0029, startHandle: 0x0024, endHandle: 0x0026, uuid: BluetoothUUID(0x1804)),
        ]
        // The Read Response at 0x0021: the 128-bit UUID little-endian, as the peer serves it.
        builder.values[0x0021] = Hex.bytes("ab8967452301e5a90d4c577e0001b10c")
        let services = builder.build().services
        #expect(services.map(\.startHandle) == [0x0021, 0x0024, 0x0027])
        #expect(services.map(\.isPrimary) == [false, false, true])
        #expect(services.first?.uuid == BluetoothUUID("0CB10100-7E57-4C0D-A9E5-0123456789AB"))
        #expect(services.dropFirst().first?.uuid == BluetoothUUID(0x1804))
        #expect(services.last?.includes.count == 2)
        // The include of the 128-bit service carries its UUID once the capture revealed it (the read at 0x0021).
        #expect(services.last?.includes.map(\.uuid) == [BluetoothUUID("0CB10100-7E57-4C0D-A9E5-0123456789AB"), BluetoothUUID(0x1804)])
    }
}
