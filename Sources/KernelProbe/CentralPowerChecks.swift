// What an app sees through the CoreBluetooth API on hci0 when the controller is powered off and on under it.

import CoreBluetooth
import Foundation
import OCBHost

/// The CoreBluetooth-level power checks: a CBCentralManager on hci0 scans, connects to the peer, then the probe powers
/// hci0 off (btmgmt, as an operator or bluetoothd would) and on again; the app must see the link end with an error,
/// `.poweredOff`, `isScanning` false, `.poweredOn` again, and a new scan find the peer.
enum CentralPowerChecks {
    /// The delegate: every callback as one line, in order, for the checks to wait on.
    final class Log: NSObject, CBCentralManagerDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        var peripherals: [String: CBPeripheral] = [:]

        var all: [String] { lock.withLock { lines } }
        func add(_ line: String) { lock.withLock { lines.append(line) } }

        func centralManagerDidUpdateState(_ central: CBCentralManager) { add("state \(central.state)") }
        func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                            advertisementData: [String: Any], rssi RSSI: NSNumber) {
            let address = (peripheral.identifier.uuidString)
            lock.withLock { peripherals[address] = peripheral }
            add("discover \(peripheral.address ?? address) rssi \(RSSI)")
        }
        func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) { add("connect") }
        func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?) {
            add("failToConnect \(Self.describe(error))")
        }
        func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: (any Error)?) {
            add("disconnect \(Self.describe(error))")
        }
        func centralManager(_ central: CBCentralManager, didFailToScanWithError error: any Error) { add("failToScan \(Self.describe(error))") }

        static func describe(_ error: (any Error)?) -> String {
            guard let error else { return "error=nil" }
            let ns = error as NSError
            return "error=\(ns.domain == CBErrorDomain ? "CBError" : ns.domain).\(ns.code)"
        }

        /// Waits (bounded) for a line after `mark` matching `match`.
        func wait(from mark: Int, within seconds: Double, _ match: (String) -> Bool) -> String? {
            let deadline = Date().addingTimeInterval(seconds)
            repeat {
                if let found = all.dropFirst(mark).first(where: match) { return found }
                Thread.sleep(forTimeInterval: 0.02)
            } while Date() < deadline
            return nil
        }
    }

    static func run(controller: UInt16, peer: String, report: ProbeReport) {
        let log = Log()
        let queue = DispatchQueue(label: "KernelProbe.central")
        let manager = CBCentralManager(delegate: log, queue: queue, options: [CBCentralManagerOptionTransportKey: "hci\(controller)"])
        defer { withExtendedLifetime(manager) {} }
        guard log.wait(from: 0, within: 10, { $0.hasPrefix("state ") }) == "state poweredOn" else {
            return report.fail("central poweredOn", "states \(log.all)")
        }
        report.pass("central poweredOn", "CBCentralManager on hci\(controller)")
        guard let peripheral = scan(manager, log, peer: peer, name: "central scan", report: report) else { return }
        var mark = log.all.count
        manager.connect(peripheral)
        guard log.wait(from: mark, within: 10, { $0.hasPrefix("connect") || $0.hasPrefix("failToConnect") }) == "connect" else {
            return report.fail("central connect", "\(log.all.dropFirst(mark))")
        }
        report.pass("central connect", "\(peer) connected")
        manager.scanForPeripherals(withServices: nil)  // scanning while connected, so the power-off ends both

        mark = log.all.count
        guard power(controller, on: false) else { return report.fail("central power off", "btmgmt power off: hci\(controller) still up") }
        let off = log.wait(from: mark, within: 5) { $0 == "state poweredOff" }
        let events = Array(log.all.dropFirst(mark))
        let linkEnded = events.contains { $0.hasPrefix("disconnect error=CBError.") }
        report.check("central power off", off != nil && linkEnded && !manager.isScanning && peripheral.state == .disconnected,
                     "\(events), isScanning \(manager.isScanning), peripheral \(peripheral.state.rawValue)")

        mark = log.all.count
        guard power(controller, on: true) else { return report.fail("central power on", "btmgmt power on: hci\(controller) still down") }
        let on = log.wait(from: mark, within: 5) { $0 == "state poweredOn" }
        report.check("central power on", on != nil, "\(log.all.dropFirst(mark))")
        guard on != nil else { return }
        _ = scan(manager, log, peer: peer, name: "central scan after power on", report: report)
        manager.stopScan()
    }

    /// Scans until `peer` is discovered (15 s: a discovery round reports each advertiser once); returns it.
    private static func scan(_ manager: CBCentralManager, _ log: Log, peer: String, name: String, report: ProbeReport) -> CBPeripheral? {
        let mark = log.all.count
        manager.scanForPeripherals(withServices: nil)
        guard let line = log.wait(from: mark, within: 15, { $0.hasPrefix("discover \(peer) ") || $0.hasPrefix("failToScan") }),
              line.hasPrefix("discover") else {
            report.fail(name, "no discovery of \(peer): \(log.all.dropFirst(mark).suffix(5)), isScanning \(manager.isScanning)")
            return nil
        }
        manager.stopScan()
        report.pass(name, line)
        return log.peripherals.values.first { $0.address == peer }
    }

    /// Powers hciN with btmgmt (its stdin held open until the state changed: btmgmt does nothing at end of input);
    /// true once HCIDeviceList shows the wanted state (10 s at most).
    static func power(_ controller: UInt16, on: Bool) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["btmgmt", "-i", "hci\(controller)", "power", on ? "on" : "off"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        let deadline = Date().addingTimeInterval(10)
        var reached = false
        while Date() < deadline {
            if (try? HCIDeviceList.devices())?.first(where: { $0.index == controller })?.isUp == on { reached = true; break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return reached
    }
}
