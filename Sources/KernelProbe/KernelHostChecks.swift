// The probe's KernelHost checks: power on, scan, connect and discover services with the link's GATT client.

import OCBCore
import Dispatch
import Foundation
import OCBGATT
import OCBHost

/// Checks of ``KernelHost`` end to end in the guest: the raw-socket scan and a kernel L2CAP link carrying GATT.
enum KernelHostChecks {
    /// Starts a KernelHost on hci`controller`, scans until `peer` advertises, connects, discovers the primary services
    /// (the peer serves 0x180F Battery and 0xFFF0, plus Bumble's 0x1800 and 0x1801), reads Battery Level 0x2A19 = 0x64
    /// by UUID (Core v5.4 Vol 3 Part G §4.8.2), then disconnects.
    static func scanConnectDiscover(controller: UInt16, peer: BluetoothAddress, report: ProbeReport) {
        let host = KernelHost(controllerIndex: controller)
        let events = Inbox<HostEvent>()
        host.setEventHandler(queue: DispatchQueue(label: "probe.kernelhost")) { events.put($0) }
        defer { host.stop() }
        let started = Inbox<Result<ControllerInfo, HostError>>()
        host.start { started.put($0) }
        guard case .success(let info)? = started.take(within: .seconds(10)) else {
            return report.fail("kernelhost start", "no controller info")
        }
        report.pass("kernelhost start", "hci\(controller) \(info.publicAddress)")

        let scanned = Inbox<HostError?>()
        host.startScan(ScanOptions()) { scanned.put($0) }
        guard case .some(nil) = scanned.take(within: .seconds(5)) else { return report.fail("kernelhost scan", "start failed") }
        let found = events.take(within: .seconds(10)) { event in
            if case .discovered(let device) = event { return device.peer.address == peer }
            return false
        }
        guard case .discovered(let device)? = found else { return report.fail("kernelhost scan", "\(peer) not discovered within 10 s") }
        report.pass("kernelhost scan", "discovered \(device.peer) rssi \(device.rssi.map { "\($0) dBm" } ?? "not available")")
        host.stopScan { scanned.put($0) }
        _ = scanned.take(within: .seconds(5))

        host.connect(to: device.peer, options: ConnectOptions(timeout: .seconds(10)))
        let outcome = events.take(within: .seconds(15)) { event in
            switch event {
            case .connected, .connectionFailed: true
            default: false
            }
        }
        guard case .connected(let link)? = outcome else {
            return report.fail("kernelhost connect", "\(outcome.map { "\($0)" } ?? "no outcome within 15 s")")
        }
        report.pass("kernelhost connect", "handle 0x\(String(link.handle.rawValue, radix: 16))")

        let services = Inbox<Result<[GATTService], GATTError>>()
        host.withGATT(link.handle) { client in
            guard let client else { return services.put(.failure(.disconnected)) }
            client.discoverAllPrimaryServices { services.put($0) }
        }
        switch services.take(within: .seconds(10)) {
        case .success(let found)?:
            let uuids = Set(found.map(\.uuid))
            report.check("kernelhost gatt services", uuids.isSuperset(of: [BluetoothUUID(0x180F), BluetoothUUID(0xFFF0)]),
                         found.map(\.description).joined(separator: ", "))
        case .failure(let error)?:
            report.fail("kernelhost gatt services", "\(error)")
        case nil:
            report.fail("kernelhost gatt services", "no result within 10 s")
        }

        let battery = Inbox<Result<[GATTHandleValue], GATTError>>()
        host.withGATT(link.handle) { client in
            guard let client else { return battery.put(.failure(.disconnected)) }
            client.readUsingCharacteristicUUID(BluetoothUUID(0x2A19)) { battery.put($0) }
        }
        let level = battery.take(within: .seconds(10))
        let value = (try? level?.get())?.first?.value
        report.check("kernelhost gatt read", value == [0x64], "Battery Level \(level.map { "\($0)" } ?? "no result within 10 s")")

        host.disconnect(link.handle, reason: .remoteUserTerminatedConnection)
        let ended = events.take(within: .seconds(10)) { event in
            if case .disconnected(let info, _, _) = event { return info.handle == link.handle }
            return false
        }
        report.check("kernelhost disconnect", ended != nil, ended.map { "\($0)" } ?? "no disconnected event within 10 s")

        remoteDisconnect(host, events, peer: device.peer, report: report)
    }

    /// Connects again and writes 0xFFF1, whose peer then disconnects with reason 0x15 (Remote Device Terminated
    /// Connection due to Power Off; Tests/KernelVM/att_peer.py): the host reports that reason from the raw socket's
    /// Disconnection Complete (Core v5.4 Vol 4 Part E §7.7.5), not the 0x13 the socket's errno would suggest.
    private static func remoteDisconnect(_ host: KernelHost, _ events: Inbox<HostEvent>, peer: PeerAddress, report: ProbeReport) {
        host.connect(to: peer, options: ConnectOptions(timeout: .seconds(10)))
        let outcome = events.take(within: .seconds(15)) { event in
            switch event {
            case .connected, .connectionFailed: true
            default: false
            }
        }
        guard case .connected(let link)? = outcome else {
            return report.fail("kernelhost remote disconnect reason", "reconnect: \(outcome.map { "\($0)" } ?? "no outcome within 15 s")")
        }
        host.withGATT(link.handle) { client in
            client?.readUsingCharacteristicUUID(BluetoothUUID(0xFFF1)) { result in
                guard let handle = (try? result.get())?.first?.handle else { return }
                try? client?.writeWithoutResponse([0x01], to: handle)
            }
        }
        let ended = events.take(within: .seconds(10)) { event in
            if case .disconnected(let info, _, _) = event { return info.handle == link.handle }
            return false
        }
        guard case .disconnected(_, let reason, _)? = ended else {
            return report.fail("kernelhost remote disconnect reason", "no disconnected event within 10 s")
        }
        report.check("kernelhost remote disconnect reason", reason == .remoteDeviceTerminatedPowerOff, "reason \(reason)")
    }
}
