// Kernel mode's btsnoop recording: monitor channel frames to btsnoop records, and a kernel without Bluetooth.

import OCBCore
import Dispatch
import Foundation
@testable import OCBHost
import OCBHCI
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// True when this kernel refuses AF_BLUETOOTH sockets (EAFNOSUPPORT), as on the development and CI machines.
private var noAFBluetooth: Bool {
    let descriptor = socket(31 /* AF_BLUETOOTH */, Int32(SOCK_RAW.rawValue), 1 /* BTPROTO_HCI */)
    if descriptor >= 0 { close(descriptor); return false }
    return errno == EAFNOSUPPORT
}

/// A path in the temporary directory that does not exist yet.
private func temporaryPath(_ name: String) -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-\(name)-\(UUID().uuidString).btsnoop").path
    try? FileManager.default.removeItem(atPath: path)
    return path
}

// Monitor datagrams, laid out as in the kernel's include/net/bluetooth/hci_mon.h (struct hci_mon_hdr: opcode, index,
// len, each little-endian) followed by HCI packets from Core v5.4 Vol 4 Part E.
/// hci0, opcode 2 (command): LE Set Scan Enable (0x200C) Enable 1, Filter_Duplicates 0 (§7.8.11).
private let scanEnableFrame: [UInt8] = [0x02, 0x00, 0x00, 0x00, 0x05, 0x00, 0x0C, 0x20, 0x02, 0x01, 0x00]
/// hci0, opcode 3 (event): Command Complete, 1 packet, opcode 0x200C, status success (§7.7.14).
private let commandCompleteFrame: [UInt8] = [0x03, 0x00, 0x00, 0x00, 0x06, 0x00, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00]
/// hci0, opcode 4 (ACL tx): handle 0x002A, L2CAP length 3 on CID 0x0004, ATT_EXCHANGE_MTU_REQ Client Rx MTU 185.
private let mtuRequestFrame: [UInt8] = [0x04, 0x00, 0x00, 0x00, 0x0B, 0x00,
                                        0x2A, 0x00, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x02, 0xB9, 0x00]
/// hci0, opcode 5 (ACL rx): handle 0x002A first flushable (PB 0b10), ATT_EXCHANGE_MTU_RSP Server Rx MTU 517.
private let mtuResponseFrame: [UInt8] = [0x05, 0x00, 0x00, 0x00, 0x0B, 0x00,
                                         0x2A, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x03, 0x05, 0x02]
/// hci1, opcode 2 (command): LE Set Advertising Enable (0x200A) Enable 1 (§7.8.9), from another controller.
private let otherControllerFrame: [UInt8] = [0x02, 0x00, 0x01, 0x00, 0x04, 0x00, 0x0A, 0x20, 0x01, 0x01]
/// No controller (0xFFFF), opcode 12 (system note) "hi\0".
private let systemNoteFrame: [UInt8] = [0x0C, 0x00, 0xFF, 0xFF, 0x03, 0x00, 0x68, 0x69, 0x00]

@Test func monitorFrameHeaderIsLittleEndianOpcodeIndexLength() throws {
    let frame = try HCIMonitorFrame(bytes: otherControllerFrame, timestamp: 1_700_000_000_000_000)
    #expect(frame.opcode == .commandPacket)
    #expect(frame.index == 1)
    #expect(frame.payload == [0x0A, 0x20, 0x01, 0x01])
    #expect(frame.timestamp == 1_700_000_000_000_000)
    let note = try HCIMonitorFrame(bytes: systemNoteFrame, timestamp: 0)
    #expect(note.opcode == .systemNote && note.index == 0xFFFF && note.payload == [0x68, 0x69, 0x00])
}

@Test func monitorFrameRejectsShortHeadersAndWrongLengths() {
    #expect(throws: HCIMonitorFrameError.shortHeader(length: 5)) { try HCIMonitorFrame(bytes: [0x02, 0x00, 0x00, 0x00, 0x05], timestamp: 0) }
    #expect(throws: HCIMonitorFrameError.shortHeader(length: 0)) { try HCIMonitorFrame(bytes: [], timestamp: 0) }
    // len says 5 but 4 bytes follow (a cut datagram), and len 3 with 5 bytes after the header.
    #expect(throws: HCIMonitorFrameError.lengthMismatch(declared: 5, actual: 4)) { try HCIMonitorFrame(bytes: Array(scanEnableFrame.dropLast()), timestamp: 0) }
    #expect(throws: HCIMonitorFrameError.lengthMismatch(declared: 3, actual: 5)) {
        try HCIMonitorFrame(bytes: [0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x0C, 0x20, 0x02, 0x01, 0x00], timestamp: 0)
    }
}

@Test func packetFramesBecomeRecordsWithTheirDirection() throws {
    let command = try #require(try HCIMonitorFrame(bytes: scanEnableFrame, timestamp: 7).captureRecord)
    #expect(command.packet == HCIPacket(type: .command, bytes: [0x0C, 0x20, 0x02, 0x01, 0x00]))
    #expect(command.direction == .sent && command.timestamp == 7 && command.adapterIndex == 0)
    let event = try #require(try HCIMonitorFrame(bytes: commandCompleteFrame, timestamp: 8).captureRecord)
    #expect(event.packet?.type == .event && event.direction == .received)
    let sent = try #require(try HCIMonitorFrame(bytes: mtuRequestFrame, timestamp: 9).captureRecord)
    #expect(sent.packet?.type == .acl && sent.direction == .sent)
    let received = try #require(try HCIMonitorFrame(bytes: mtuResponseFrame, timestamp: 10).captureRecord)
    #expect(received.packet == HCIPacket(type: .acl, bytes: Array(mtuResponseFrame.dropFirst(6))) && received.direction == .received)
    #expect(try HCIMonitorFrame(bytes: systemNoteFrame, timestamp: 0).captureRecord == nil)
    // opcode 0 (new index): type 0 primary, bus 0x00, address, name "hci0" — not a packet.
    let newIndex: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xAA, 0x00,
                             0x68, 0x63, 0x69, 0x30, 0x00, 0x00, 0x00, 0x00]
    #expect(try HCIMonitorFrame(bytes: newIndex, timestamp: 0).captureRecord == nil)
}

@Test func recordingKeepsOnlyItsControllersPackets() throws {
    let frames = try [scanEnableFrame, otherControllerFrame, commandCompleteFrame, systemNoteFrame, mtuRequestFrame, mtuResponseFrame]
        .enumerated().map { try HCIMonitorFrame(bytes: $0.element, timestamp: 1_700_000_000_000_000 + Int64($0.offset)) }
    let kept = frames.compactMap { KernelRecording.record($0, controller: 0) }
    #expect(kept.map(\.packet?.type) == [.command, .event, .acl, .acl])
    #expect(frames.compactMap { KernelRecording.record($0, controller: 1) }.map(\.packet) == [HCIPacket(type: .command, bytes: [0x0A, 0x20, 0x01, 0x01])])

    // Written as btsnoop 1002 and read back: flags bit 0 = direction, bit 1 = command or event (btsnoop format,
    // RFC 1761 layout with the Bluetooth datalink), so commands 2, events 3, ACL sent 0, ACL received 1.
    let file = try CaptureFile.read(bytes: BtsnoopWriter.file(kept))
    #expect(file.format == .btsnoop(datalink: 1002))
    #expect(file.records.map(\.flags) == [2, 3, 0, 1])
    #expect(file.records.map(\.direction) == [.sent, .received, .sent, .received])
    #expect(file.records.map(\.timestamp) == [1_700_000_000_000_000, 1_700_000_000_000_002, 1_700_000_000_000_004, 1_700_000_000_000_005])
    #expect(file.records.last?.packet?.bytes == [0x2A, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x03, 0x05, 0x02])
}

@Test(.enabled(if: noAFBluetooth)) func monitorChannelNeedsBluetoothInTheKernel() throws {
    let monitor = HCIMonitorSocket()
    #expect(throws: HCITransportError.noBluetoothSupport) {
        try monitor.open(onFrame: { _ in }, onClose: { _ in })
    }
    monitor.close()  // nothing open: no effect

    let path = temporaryPath("monitor")
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
        _ = try KernelRecording.start(path: path, controller: 0, onProblem: { _ in })
        Issue.record("the monitor channel opened on a kernel without AF_BLUETOOTH")
    } catch {
        #expect(error.reason.contains("no Bluetooth support"))
    }
    // The file was created and holds the 16-byte btsnoop header ("btsnoop\0", version 1, datalink 1002) only.
    let bytes = try #require(FileManager.default.contents(atPath: path))
    #expect(Array(bytes) == Array("btsnoop".utf8) + [0, 0, 0, 0, 1, 0, 0, 0x03, 0xEA])
}

@Test func monitorChannelPermissionErrorSaysWhichCapability() {
    #expect(KernelRecording.reason(.permissionDenied(operation: "open the HCI monitor channel")).contains("CAP_NET_RAW"))
}

@Test(.enabled(if: noAFBluetooth)) func kernelHostWithBtsnoopPathStillFailsCleanly() async throws {
    let path = temporaryPath("kernelhost")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let host = KernelHost(controllerIndex: 0, btsnoopPath: path)
    #expect(host.btsnoopPath == path)
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "KernelRecordingTests")) { log.append($0) }
    await #expect(throws: HostError.noBluetoothSupport) { try await host.start() }
    #expect(host.state == .unsupported)
    #expect(log.first(within: 1) { if case .stateChanged(.unsupported) = $0 { true } else { nil } } == true)
    host.stop()
    #expect(host.state == .unsupported)
    // The start failed before the raw socket opened: no recording was attempted, so no file and no recording problem.
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(!log.all.contains { if case .recordingProblem = $0 { true } else { false } })
}
