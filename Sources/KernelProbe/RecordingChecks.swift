// The probe's recording checks: a KernelHost session with a btsnoop path, then the file read back and inspected.

import OCBCore
import Dispatch
import Foundation
import OCBHCI
import OCBHost

/// Checks that ``KernelHost`` with a btsnoop path records its session from the HCI monitor channel: scan, connect,
/// an ATT Exchange MTU (Core v5.4 Vol 3 Part F §3.4.2), disconnect, stop; then the file read back with
/// `CaptureFile.read(path:)` must hold hci0's packets only, with the right directions.
enum RecordingChecks {
    /// The Client Rx MTU this check sends in ATT_EXCHANGE_MTU_REQ (opcode 0x02); the peer answers with ATT_EXCHANGE_MTU_RSP (0x03).
    static let clientMTU: UInt16 = 185

    /// Runs the session on hci`controller` against `peer`, recording into `path`, then checks the file.
    static func run(controller: UInt16, peer: BluetoothAddress, path: String, report: ProbeReport) {
        let began = wallClock()
        guard session(controller: controller, peer: peer, path: path, report: report) else { return }
        let ended = wallClock()
        let file: CaptureFile
        do {
            file = try CaptureFile.read(path: path)
        } catch {
            return report.fail("record file", "CaptureFile.read(path: \(path)) threw \(error)")
        }
        report.check("record file", file.format == .btsnoop(datalink: 1002) && file.error == nil && !file.records.isEmpty,
                     "\(file.format), \(file.records.count) records, error \(file.error.map { "\($0)" } ?? "none")")
        check(RecordedSession(file.records), peer: peer, began: began, ended: ended, report: report)
    }

    /// Microseconds since 1970 now.
    static func wallClock() -> Int64 { Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()) }

    /// Start with the path, scan until `peer`, stop scanning, connect, exchange MTU, disconnect, stop. False (after a
    /// FAIL line) when a step did not happen.
    private static func session(controller: UInt16, peer: BluetoothAddress, path: String, report: ProbeReport) -> Bool {
        let host = KernelHost(controllerIndex: controller, btsnoopPath: path)
        let events = Inbox<HostEvent>()
        let diagnostics = Inbox<String>()
        let eventQueue = DispatchQueue(label: "probe.recording")
        host.setEventHandler(queue: eventQueue) { event in
            if case .recordingProblem(let line) = event { diagnostics.put(line) }
            events.put(event)
        }
        let started = Inbox<Result<ControllerInfo, HostError>>()
        host.start { started.put($0) }
        guard case .success? = started.take(within: .seconds(10)) else {
            host.stop()
            report.fail("record session", "start failed")
            return false
        }
        var steps: [String] = []
        defer { host.stop() }
        let scanned = Inbox<HostError?>()
        host.startScan(ScanOptions()) { scanned.put($0) }
        let found = events.take(within: .seconds(10)) { event in
            if case .discovered(let device) = event { return device.peer.address == peer }
            return false
        }
        host.stopScan { scanned.put($0) }
        _ = scanned.take(within: .seconds(5))
        _ = scanned.take(within: .seconds(5))
        guard case .discovered(let device)? = found else {
            report.fail("record session", "\(peer) not discovered within 10 s")
            return false
        }
        steps.append("discovered \(device.peer)")
        host.connect(to: device.peer, options: ConnectOptions(timeout: .seconds(10)))
        let outcome = events.take(within: .seconds(15)) { event in
            switch event {
            case .connected, .connectionFailed: true
            default: false
            }
        }
        guard case .connected(let link)? = outcome else {
            report.fail("record session", "connect: \(outcome.map { "\($0)" } ?? "no outcome within 15 s")")
            return false
        }
        steps.append("connected 0x\(String(link.handle.rawValue, radix: 16))")
        let mtu = Inbox<Result<UInt16, HostError>>()
        host.exchangeMTU(clientMTU, on: link.handle) { mtu.put($0) }
        let agreed = mtu.take(within: .seconds(10))
        steps.append("ATT_MTU \(agreed.map { "\($0)" } ?? "no answer within 10 s")")
        host.disconnect(link.handle)
        let ended = events.take(within: .seconds(10)) { event in
            if case .disconnected(let info, _, _) = event { return info.handle == link.handle }
            return false
        }
        steps.append(ended == nil ? "no disconnection within 10 s" : "disconnected")
        host.stop()
        _ = host.state  // stop runs on the host queue: once this returns, the recording is drained and closed
        eventQueue.sync {}  // and the events emitted until then were delivered
        let problems = diagnostics.drain().filter { $0.contains("btsnoop") }
        let ok = (try? agreed?.get()) != nil && ended != nil && problems.isEmpty
        report.check("record session", ok, (steps + problems.map { "diagnostic: \($0)" }).joined(separator: ", "))
        return ok
    }

    /// The checks on what the file holds.
    private static func check(_ recorded: RecordedSession, peer: BluetoothAddress, began: Int64, ended: Int64, report: ProbeReport) {
        let sent = recorded.scanEnables(.sent)
        report.check("record scan enable", sent.contains(1) && sent.contains(0) && recorded.scanEnables(.received).isEmpty,
                     "LE Set (Extended) Scan Enable sent with Enable \(sent)")

        let fromPeer = recorded.advertisingReports.filter { $0.address == peer }
        report.check("record advertising report",
                     !fromPeer.isEmpty && fromPeer.allSatisfy { $0.direction == .received },
                     "\(fromPeer.count) reports from \(peer), directions \(Set(fromPeer.map(\.direction.description)).sorted())")

        let requests = recorded.att.filter { $0.opcode == 0x02 }
        let responses = recorded.att.filter { $0.opcode == 0x03 }
        let wanted = [UInt8(clientMTU & 0xFF), UInt8(clientMTU >> 8)]
        report.check("record att", requests.count == 1 && requests.first?.direction == .sent && requests.first?.parameters == wanted
                     && responses.count == 1 && responses.first?.direction == .received,
                     "CID 4: ATT_EXCHANGE_MTU_REQ \(requests.map { "\($0.direction) \(Hex.string($0.parameters))" }), "
                     + "ATT_EXCHANGE_MTU_RSP \(responses.map { "\($0.direction) \(Hex.string($0.parameters))" }), \(recorded.att.count) ATT PDUs")

        // hci1 (the peer's controller) is in the same monitor channel: its side of the link (role peripheral, peer hci0)
        // and its advertising commands must be left out.
        let enableOpcodes = [HCIOpcode(ogf: 0x08, ocf: 0x000A), HCIOpcode(ogf: 0x08, ocf: 0x0039)]  // LE Set (Extended) Advertising Enable
        let advertisingEnables = recorded.commands.filter { enableOpcodes.contains($0.opcode) }
        report.check("record only hci0",
                     recorded.connections.count == 1 && recorded.connections.first?.role == 0 && recorded.connections.first?.peer == peer
                     && advertisingEnables.isEmpty,
                     "connection complete events \(recorded.connections.map { "role \($0.role) peer \($0.peer)" }), "
                     + "\(advertisingEnables.count) advertising enable commands")

        let commandsSent = recorded.commands.allSatisfy { $0.direction == .sent }
        let eventsReceived = recorded.eventDirections.allSatisfy { $0 == .received }
        report.check("record directions", commandsSent && eventsReceived && recorded.flagMismatches.isEmpty,
                     "\(recorded.commands.count) commands all sent: \(commandsSent), \(recorded.eventDirections.count) events all "
                     + "received: \(eventsReceived), flag mismatches \(recorded.flagMismatches.prefix(3))")

        let ordered = zip(recorded.timestamps, recorded.timestamps.dropFirst()).allSatisfy { $0 <= $1 }
        let inSession = recorded.timestamps.allSatisfy { $0 >= began - 1_000_000 && $0 <= ended + 1_000_000 }
        report.check("record timestamps", ordered && inSession && !recorded.timestamps.isEmpty,
                     "\(recorded.timestamps.count) timestamps, in order: \(ordered), within the session: \(inSession)")
    }
}
