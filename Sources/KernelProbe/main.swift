// KernelProbe: exercises the Linux kernel Bluetooth path (HCI sockets, L2CAP ATT socket) against btvirt in the VM guest.
//
// Usage (inside scripts/vm/run; scripts/vm/kernel-test runs the whole sequence):
//   KernelProbe list                    controllers via HCIDeviceList (hci0 00:AA:01:00:00:00, hci1 00:AA:01:01:00:01)
//   KernelProbe raw PEER                user channel refused on up hci0; raw-channel LE scan on hci0 until PEER advertises
//   KernelProbe att PEER                L2CAPSocket: connect timeout, cancel, Exchange MTU, then PEER disconnects
//   KernelProbe host PEER               KernelHost on hci0: scan until PEER, connect, GATT service discovery and read
//   KernelProbe record PEER FILE        KernelHost on hci0 recording to FILE: scan, connect, Exchange MTU; FILE read back
//   KernelProbe user                    user channel on hci0 (must be down): HCI Reset, Read BD_ADDR
//   KernelProbe central-power PEER      CoreBluetooth on hci0: scan, connect PEER, hci0 powered off (btmgmt) and on again
// Prints one PASS/FAIL line per check; exits 1 if any failed, 2 on a usage error.

import OCBCore
import Foundation

let report = ProbeReport()
let arguments = Array(CommandLine.arguments.dropFirst())
let hci0 = BluetoothAddress("00:AA:01:00:00:00") ?? .zero
let hci1 = BluetoothAddress("00:AA:01:01:00:01") ?? .zero
/// An address nobody in the guest advertises (for the timeout and cancel checks).
let absent = BluetoothAddress("C0:FF:EE:00:00:99") ?? .zero

func peerArgument() -> BluetoothAddress {
    guard arguments.count >= 2, let address = BluetoothAddress(arguments[1]) else {
        FileHandle.standardError.write(Data("KernelProbe: \(arguments.first ?? "?") needs a peer address\n".utf8))
        exit(2)
    }
    return address
}

switch arguments.first {
case "list":
    ControllerChecks.list(expected: [0: hci0, 1: hci1], report: report)
case "raw":
    let peer = peerArgument()
    ControllerChecks.userChannelBusy(controller: 0, report: report)
    ControllerChecks.rawScan(controller: 0, peer: peer, timeout: .seconds(10), report: report)
case "att":
    let peer = peerArgument()
    ATTChecks.connectTimeout(absent: absent, timeout: .seconds(2), report: report)
    ATTChecks.connectCancel(absent: absent, report: report)
    ATTChecks.exchangeMTU(peer: peer, type: .random, report: report)
    ATTChecks.remoteDisconnect(peer: peer, type: .random, report: report)
case "host":
    KernelHostChecks.scanConnectDiscover(controller: 0, peer: peerArgument(), report: report)
case "record":
    let peer = peerArgument()
    guard arguments.count >= 3 else {
        FileHandle.standardError.write(Data("KernelProbe: record needs a peer address and a file path\n".utf8))
        exit(2)
    }
    RecordingChecks.run(controller: 0, peer: peer, path: arguments[2], report: report)
case "user":
    ControllerChecks.userChannel(controller: 0, expected: hci0, report: report)
case "central-power":
    guard arguments.count >= 2 else { exit(2) }
    CentralPowerChecks.run(controller: 0, peer: arguments[1], report: report)
default:
    FileHandle.standardError.write(Data("usage: KernelProbe list | raw PEER | att PEER | host PEER | record PEER FILE | user | central-power PEER\n".utf8))
    exit(2)
}
exit(report.exitStatus)
