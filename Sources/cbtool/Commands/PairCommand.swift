// `cbtool pair ADDRESS`: connect, pair (or encrypt with the bond's key) and say how the link is protected.

import OCBToolKit
import CoreBluetooth

/// `cbtool pair ADDRESS`.
///
/// Connects and calls `CBPeripheral.pair()` (Linux addition): Just Works pairing, LE Secure Connections when the
/// peer supports it, legacy otherwise; the bond is stored (`cbtool bonds` lists it). A bonded device is encrypted with
/// the stored key instead. Prints `C1:C3:00:00:00:01 paired: encrypted, unauthenticated (Just Works), LE Secure
/// Connections, 16-octet key, bonded`. JSON: `{"type":"paired","address":…,"encrypted":true,"authenticated":false,
/// "secureConnections":true,"keySize":16,"bonded":true,"level":2}` (level: LE security mode 1 level, Core v5.4 Vol 3
/// Part C §10.2.1). A refused or failed pairing exits 1 with the reason (e.g. the peer's Pairing Failed reason).
enum PairCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        let (session, device) = try LiveCommandSupport.connectedDevice(invocation)
        defer { session.close() }
        let peripheral = device.peripheral
        let address = CentralSession.name(peripheral)
        CentralSession.progress("pairing…")
        try session.pair(peripheral)
        let security = peripheral.linkSecurity
        CentralSession.progress("disconnecting…")
        session.disconnect(peripheral)
        output.emit("\(address) paired: \(security)",
                    json: ["type": "paired", "address": .string(address), "encrypted": .bool(security.encrypted),
                           "authenticated": .bool(security.authenticated), "secureConnections": .bool(security.secureConnections),
                           "keySize": .integer(security.keySize), "bonded": .bool(security.bonded), "level": .integer(security.level)])
    }
}
