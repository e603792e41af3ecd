// `cbtool rssi ADDRESS`: connect and read the link's RSSI; the advertising RSSI when the controller cannot tell.

import OCBCore
import OCBToolKit
import CoreBluetooth
import Foundation

/// `cbtool rssi ADDRESS`.
///
/// Connects and reads the connection's RSSI (HCI Read RSSI, Core v5.4 Vol 4 Part E §7.5.4, dBm):
/// `C1:A0:00:00:00:01 -47 dBm (connection; advertising -45 dBm)`. When the controller refuses Read RSSI, the RSSI of
/// the advertisement that found the device is given instead, with the reason on stderr:
/// `C1:A0:00:00:00:01 -45 dBm (advertising)`.
/// JSON: `{"type":"rssi","address":…,"rssi":-45,"source":"connection"|"advertising","advertisingRSSI":-45,"connectionRSSI":-47|null}`.
enum RSSICommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        let (session, device) = try LiveCommandSupport.connectedDevice(invocation)
        defer { session.close() }
        let peripheral = device.peripheral
        let address = CentralSession.name(peripheral)
        var connectionRSSI: Int?
        do {
            connectionRSSI = try session.readRSSI(peripheral)
        } catch {
            guard peripheral.state == .connected else { throw error }
            CentralSession.progress("cbtool: note: \(error.message); giving the advertising RSSI")
        }
        CentralSession.progress("disconnecting…")
        session.disconnect(peripheral)
        let text = connectionRSSI.map { "\(address) \($0) dBm (connection; advertising \(device.rssi) dBm)" }
            ?? "\(address) \(device.rssi) dBm (advertising)"
        output.emit(text, json: ["type": "rssi", "address": .string(address), "rssi": .integer(connectionRSSI ?? device.rssi),
                                 "source": connectionRSSI == nil ? "advertising" : "connection",
                                 "advertisingRSSI": .integer(device.rssi),
                                 "connectionRSSI": connectionRSSI.map { .integer($0) } ?? .null])
    }
}
