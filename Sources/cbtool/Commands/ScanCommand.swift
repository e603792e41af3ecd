// `cbtool scan`: a live list of advertisers through CBCentralManager's scan, then a summary.

import OCBCore
import OCBToolKit
import CoreBluetooth
import Foundation

/// `cbtool scan [--duration S] [--passive] [--service UUID]... [--duplicates]`.
///
/// One line (``AdvertiserFormatter/line(_:)``) or JSON object (``AdvertiserFormatter/writeJSONLine(_:microsecondsSince1970:into:)``: the
/// object of ``AdvertiserFormatter/json(_:extra:)`` plus `"time"`)
/// per report CoreBluetooth gives: each advertiser once (again when its scan response
/// completes it: CoreBluetooth's coalescing), or every
/// advertisement with `--duplicates`. Runs for `--duration`, or until Ctrl-C; then prints
/// `summary: 4 advertisers (2 connectable), 4 reports in 3.0 s (active scan)` /
/// `{"type":"summary","advertisers":4,"advertisersCapped":false,"connectable":2,"reports":4,"dropped":0,"seconds":3.0,"active":true}`;
/// reports dropped because the output was slower than the advertisers (``EventInbox``'s bound, then CoreBluetooth's
/// `droppedDiscoveryCount`) are counted in `dropped` and named at the end of the text line. The advertiser count is
/// bounded (``OCBToolKit/AdvertiserTally``, 65,536): past it the summary says "at least".
enum ScanCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        let session = try CentralSession(invocation)
        defer { session.close() }
        let interrupt = InterruptSignal(inbox: session.inbox)
        defer { withExtendedLifetime(interrupt) {} }

        var options: [String: Any] = [CBCentralManagerScanOptionAllowDuplicatesKey: invocation.duplicates]
        if invocation.passive { options[CBCentralManagerScanOptionPassiveKey] = true }
        let services = invocation.services.isEmpty ? nil : invocation.services.map(CBUUID.init(bluetoothUUID:))
        let kind = invocation.passive ? "passive" : "active"
        CentralSession.progress("scanning (\(kind))" + (invocation.duration.map { " for \(CentralSession.seconds($0))" } ?? "")
                                + (invocation.duration == nil ? ", Ctrl-C to stop…" : "…"))
        // The scan prints each discovery and keeps no peripheral: the delegate posts the address instead.
        session.delegate.keepsNoPeripherals = true
        session.manager.scanForPeripherals(withServices: services, options: options)

        let start = ContinuousClock.now
        let deadline = invocation.duration.map { start + $0 }
        var tally = AdvertiserTally()
        var reports = 0
        // While reports come faster than lines can be written one by one, they are written a batch at a time: what
        // waits when the inbox runs empty (at most OutputSink.heldLimit lines late).
        output.hold()
        defer { output.release() }
        func list(_ snapshot: AdvertiserSnapshot) {
            reports += 1
            tally.note(snapshot.address, isConnectable: snapshot.isConnectable ?? false)
            output.emit(AdvertiserFormatter.line(snapshot)) { line in
                let time = LiveCommandSupport.microsecondsSince1970(Date())  // the clock read for a JSON line only
                AdvertiserFormatter.writeJSONLine(snapshot, microsecondsSince1970: time, into: &line)
            }
        }
        scanning: while let event = session.inbox.next(until: deadline) {
            defer { if !session.inbox.hasWaiting { output.flush() } }
            switch event {
            case .discovered(let peripheral, let advertisement, let rssi):
                // Posted before the scan told the delegate to keep no peripherals.
                list(AdvertisementText.snapshot(peripheral, advertisement: advertisement, rssi: rssi))
            case .advertised(let address, let addressType, let advertisement, let rssi):
                list(AdvertisementText.snapshot(address: address, addressType: addressType, advertisement: advertisement, rssi: rssi))
            case .stateChanged(let state) where state != .poweredOn:
                throw .failure("the controller stopped while scanning (CoreBluetooth reports \(state))")
            case .scanFailed(let reason):
                throw .failure(reason)
            case .interrupted:
                break scanning
            default:
                continue
            }
        }
        if session.manager.isScanning { session.manager.stopScan() }
        let elapsed = ContinuousClock.now - start
        let count = tally.count
        let connectableCount = tally.connectableCount
        // Reports lost because this output was slower than the air: cbtool's own bound, and the manager's.
        let dropped = session.inbox.droppedDiscoveries + session.manager.droppedDiscoveryCount
        output.emit("summary: \(tally.isCapped ? "at least " : "")\(count) advertiser\(count == 1 ? "" : "s") (\(connectableCount) connectable), \(reports) report\(reports == 1 ? "" : "s") "
                    + "in \(LiveCommandSupport.secondsText(elapsed)) s (\(kind) scan"
                    + (invocation.services.isEmpty ? "" : ", services " + invocation.services.map(\.description).joined(separator: ", ")) + ")"
                    + (dropped == 0 ? "" : "; \(dropped) report\(dropped == 1 ? "" : "s") dropped: the output was slower than the advertisements"),
                    json: ["type": "summary", "advertisers": .integer(count), "advertisersCapped": .bool(tally.isCapped),
                           "connectable": .integer(connectableCount),
                           "reports": .integer(reports), "dropped": .integer(dropped), "seconds": LiveCommandSupport.secondsJSON(elapsed),
                           "active": .bool(!invocation.passive),
                           "services": .array(invocation.services.map { .string($0.description) })])
    }
}
