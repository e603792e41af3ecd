// The probe's HCI socket checks: the controller list, a raw-channel LE scan, and the user channel.

import OCBCore
import Foundation
import OCBHCI
import OCBHost

/// Checks of HCIDeviceList and HCISocketTransport against the guest's btvirt controllers.
enum ControllerChecks {
    /// HCIDeviceList.devices() lists `expected` (index → address) among the controllers.
    static func list(expected: [UInt16: BluetoothAddress], report: ProbeReport) {
        let devices: [HCIDeviceInfo]
        do {
            devices = try HCIDeviceList.devices()
        } catch {
            report.fail("list", "HCIDeviceList.devices() threw \(error)")
            return
        }
        report.note("list", devices.map(\.description).joined(separator: ", "))
        for (index, address) in expected.sorted(by: { $0.key < $1.key }) {
            guard let device = devices.first(where: { $0.index == index }) else {
                report.fail("list hci\(index)", "missing")
                continue
            }
            report.check("list hci\(index)", device.name == "hci\(index)" && device.address == address && device.bus == 0,
                         "\(device.name) \(device.address) bus \(device.bus) (want hci\(index) \(address) virtual)")
        }
    }

    /// The user channel on a controller that is up must be refused with ``HCITransportError/busy(controller:)``.
    static func userChannelBusy(controller: UInt16, report: ProbeReport) {
        do {
            let session = try HCISession(controller: controller, channel: .user)
            _ = session.close()
            report.fail("user busy", "the user channel opened on hci\(controller) although it is up")
        } catch {
            report.check("user busy", error == .busy(controller: "hci\(controller)"), "open threw \(error)")
        }
    }

    /// Raw channel on an up controller: LE Set Scan Parameters, LE Set Scan Enable, then an LE Advertising Report
    /// from `peer` within `timeout`; scanning is disabled again and the transport closed.
    static func rawScan(controller: UInt16, peer: BluetoothAddress, timeout: Duration, report: ProbeReport) {
        let session: HCISession
        do {
            session = try HCISession(controller: controller, channel: .raw)
        } catch {
            report.fail("raw open", "HCISocketTransport(hci\(controller), raw).open threw \(error)")
            return
        }
        report.pass("raw open", "hci\(controller) raw channel bound, filter set")
        switch session.run(HCILESetScanParameters(scanType: .passive, interval: 0x0010, window: 0x0010)) {
        case .success: report.pass("raw scan parameters", "LE Set Scan Parameters: Command Complete, success")
        case let .failure(error): report.fail("raw scan parameters", error.description)
        }
        switch session.run(HCILESetScanEnable(enable: true, filterDuplicates: false)) {
        case .success: report.pass("raw scan enable", "LE Set Scan Enable: Command Complete, success")
        case let .failure(error): report.fail("raw scan enable", error.description)
        }
        let started = ContinuousClock.now
        let seen: LEAdvertisingReport? = session.waitForEvent(within: timeout) { event in
            guard case let .leMeta(.advertisingReport(reports)) = event else { return nil }
            return reports.reports.first { $0.address == peer }
        }
        if let seen {
            report.pass("raw advertising report", "\(seen.eventType) from \(seen.address) (\(seen.addressType)), "
                        + "\(seen.data.count) data bytes, rssi \(seen.rssi.map(String.init) ?? "n/a"), after \(ContinuousClock.now - started)")
        } else {
            report.fail("raw advertising report", "no LE Advertising Report from \(peer) within \(timeout)")
        }
        switch session.run(HCILESetScanEnable(enable: false)) {
        case .success: report.pass("raw scan disable", "LE Set Scan Enable (off): success")
        case let .failure(error): report.fail("raw scan disable", error.description)
        }
        let closed = session.close()
        report.check("raw close", closed.closed && closed.error == nil,
                     closed.closed ? "onClose(\(closed.error.map { "\($0)" } ?? "nil"))" : "no onClose within 2 s")
    }

    /// User channel on a controller that is down: HCI Reset, then Read BD_ADDR must give `expected`.
    static func userChannel(controller: UInt16, expected: BluetoothAddress, report: ProbeReport) {
        let session: HCISession
        do {
            session = try HCISession(controller: controller, channel: .user)
        } catch {
            report.fail("user open", "HCISocketTransport(hci\(controller), user).open threw \(error)")
            return
        }
        report.pass("user open", "hci\(controller) user channel bound")
        switch session.run(HCIReset()) {
        case .success: report.pass("user reset", "HCI Reset: Command Complete, success")
        case let .failure(error): report.fail("user reset", error.description)
        }
        switch session.run(HCIReadBDADDR()) {
        case let .success(address): report.check("user read bd_addr", address == expected, "\(address) (want \(expected))")
        case let .failure(error): report.fail("user read bd_addr", error.description)
        }
        let closed = session.close()
        report.check("user close", closed.closed && closed.error == nil,
                     closed.closed ? "onClose(\(closed.error.map { "\($0)" } ?? "nil"))" : "no onClose within 2 s")
    }
}
