// Test helpers: hex literals and a minimal btsnoop v1 (datalink 1002, H4) record reader over Fixtures/captures.

import BluetoothCore
import Foundation
import HCI

/// Bytes from a hex literal written as in field-inputs.md (spaces allowed); empty if malformed (the test then fails on values).
func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

/// One H4 frame of a capture: its record number (1-based, as tshark numbers frames) and packet.
struct CaptureFrame {
    var number: Int
    var packet: HCIPacket
}

enum CaptureFixture {
    static var capturesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/captures")
    }

    /// Reads every record of a btsnoop v1 H4 capture: 16-byte header ("btsnoop\0", version 1, datalink 1002), then
    /// records of a 24-byte big-endian header (original length, included length, flags, drops, timestamp) and the H4 bytes.
    static func frames(_ name: String) throws -> [CaptureFrame] {
        let bytes = [UInt8](try Data(contentsOf: capturesDirectory.appendingPathComponent(name)))
        var reader = ByteReader(bytes)
        guard try reader.readBytes(8) == Array("btsnoop\0".utf8) else { throw CocoaError(.fileReadCorruptFile) }
        guard try reader.readUInt32BigEndian() == 1, try reader.readUInt32BigEndian() == 1002 else { throw CocoaError(.fileReadCorruptFile) }
        var frames: [CaptureFrame] = []
        while !reader.isAtEnd {
            _ = try reader.readUInt32BigEndian()
            let included = Int(try reader.readUInt32BigEndian())
            try reader.skip(16)
            let record = try reader.readBytes(included)
            guard let indicator = record.first, let type = HCIPacketType(rawValue: indicator) else { throw CocoaError(.fileReadCorruptFile) }
            frames.append(CaptureFrame(number: frames.count + 1, packet: HCIPacket(type: type, bytes: Array(record.dropFirst()))))
        }
        return frames
    }

    /// The packet of frame `number` (1-based).
    static func frame(_ name: String, _ number: Int) throws -> HCIPacket {
        let all = try frames(name)
        guard number >= 1, number <= all.count else { throw CocoaError(.fileReadCorruptFile) }
        return all[number - 1].packet
    }

    static let names = [
        "bottle-legacy-conn-complete-adv-reports.btsnoop", "escooter-ext-adv-nonlegacy-acl-fragments.btsnoop",
        "lock-legacy-adv-discovery-indications.btsnoop", "scooter-ext-adv-mtu517-indications.btsnoop",
        "toy-legacy-conn-cycles-notify-heavy.btsnoop", "toycar-acl-only-read-write.btsnoop",
        "treadmill-legacy-adv-notifications.btsnoop", "wristband-read-blob-acl-fragments-smp.btsnoop",
    ]
}

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
