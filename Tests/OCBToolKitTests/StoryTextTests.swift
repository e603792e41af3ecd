// decode's text and JSON wording: singular/plural counts, labels of handles the database does not name, ISO 8601 times.
@testable import OCBToolKit
import OCBCore
import OCBATT
import OCBGATT
import Foundation
import Testing

@Suite struct StoryTextTests {
    @Test("counts read as English: 1 connection, 0 connections, 2 read blobs")
    func counts() {
        #expect(GATTText.count(1, "connections") == "1 connection")
        #expect(GATTText.count(0, "connections") == "0 connections")
        #expect(GATTText.count(2, "read blobs") == "2 read blobs")
        #expect(GATTText.count(1, "read blobs") == "1 read blob")
        let counter = { var c = AttributeCounter(handle: 0x0003); c.reads = 1; c.readBlobs = 1; c.writeRequests = 1; return c }()
        #expect(StoryRenderer.counterLine(counter, name: "2A00 Device Name")
                == "0x0003 2A00 Device Name: 1 read, 1 read blob, 1 write (1 with response, 0 without)")
    }

    /// The virtual peer's alpha (Tests/Peer/README.md): 0x0021 declares the secondary service 0CB10100 (its UUID read
    /// there as 16 bytes), 0x0027 the primary 0CB10001 whose include sits at 0x0028; 0x002A declares 0CB10002.
    @Test("traffic on handles without a name says what they are, else (unknown attribute)")
    func labels() throws {
        var builder = PeerDatabaseBuilder(key: "C1:A0:00:00:00:01")
        let test = try #require(BluetoothUUID("0CB10001-7E57-4C0D-A9E5-0123456789AB"))
        let string = try #require(BluetoothUUID("0CB10002-7E57-4C0D-A9E5-0123456789AB"))
        builder.services = [GATTService(uuid: test, isPrimary: true, startHandle: 0x0027, endHandle: 0x004E)]
        builder.includes = [0x0028: GATTTreeInclude(handle: 0x0028, startHandle: 0x0021, endHandle: 0x0023, uuid: nil)]
        builder.characteristics = [GATTCharacteristic(declarationHandle: 0x002A, valueHandle: 0x002B, endHandle: 0x002B,
                                                      properties: [.read], uuid: string)]
        // The Read Response at 0x0021: 0CB10100-7E57-4C0D-A9E5-0123456789AB little-endian.
        builder.values[0x0021] = [0xAB, 0x89, 0x67, 0x45, 0x23, 0x01, 0xE5, 0xA9, 0x0D, 0x4C, 0x57, 0x7E, 0x00, 0x01, 0xB1, 0x0C]
        for handle: AttributeHandle in [0x0021, 0x0028, 0x002A, 0x002B, 0x0099] { builder.count(handle) { $0.reads += 1 } }
        let peer = builder.build()
        let lines = peer.counters.map { StoryRenderer.counterLine($0, name: peer.attributeLabel($0.handle)) }
        #expect(lines == [
            "0x0021 (start of secondary service 0CB10100-7E57-4C0D-A9E5-0123456789AB): 1 read",
            "0x0028 (include in service 0CB10001-7E57-4C0D-A9E5-0123456789AB): 1 read",
            "0x002A (declaration of characteristic 0CB10002-7E57-4C0D-A9E5-0123456789AB): 1 read",
            "0x002B 0CB10002-7E57-4C0D-A9E5-0123456789AB: 1 read",
            "0x0099 (unknown attribute): 1 read",
        ])
        // JSON keeps "name" for what the database names, null otherwise.
        #expect(peer.attributeName(0x0099) == nil)
    }

    @Test("ISO 8601 UTC with milliseconds, rounded down, for any Int64 of microseconds")
    func isoTime() {
        #expect(ISOTime.string(microsecondsSince1970: 0) == "1970-01-01T00:00:00.000Z")
        // tshark's frame.time_epoch of the lock capture's first record: 1552223479.707800.
        #expect(ISOTime.string(microsecondsSince1970: 1_552_223_479_707_800) == "2019-03-10T13:11:19.707Z")
        #expect(ISOTime.string(microsecondsSince1970: 951_782_400_000_000) == "2000-02-29T00:00:00.000Z")
        #expect(ISOTime.string(microsecondsSince1970: -1) == "1969-12-31T23:59:59.999Z")
        // Every field at its widest and at its narrowest (the digits are written into their places from the last).
        #expect(ISOTime.string(microsecondsSince1970: 253_402_300_799_999_999) == "9999-12-31T23:59:59.999Z")
        #expect(ISOTime.string(microsecondsSince1970: 978_307_201_001_000) == "2001-01-01T00:00:01.001Z")
        #expect(ISOTime.string(microsecondsSince1970: -62_167_219_200_000_001) == "-000001-12-31T23:59:59.999Z")
        #expect(ISOTime.string(microsecondsSince1970: 253_402_300_800_000_000) == "+010000-01-01T00:00:00.000Z")
        #expect(ISOTime.string(microsecondsSince1970: .max) == "+294247-01-10T04:00:54.775Z")
        #expect(ISOTime.string(microsecondsSince1970: .min) == "-290308-12-21T19:59:05.224Z")
    }
}
