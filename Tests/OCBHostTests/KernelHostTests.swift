// Kernel mode on a kernel without AF_BLUETOOTH: start fails cleanly with "no Bluetooth support" and nothing else runs.

import Dispatch
import Foundation
import OCBHost
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// True when this kernel refuses AF_BLUETOOTH sockets (EAFNOSUPPORT), as on the development and CI machines.
private var kernelLacksBluetooth: Bool {
    let descriptor = socket(31 /* AF_BLUETOOTH */, Int32(SOCK_RAW.rawValue), 1 /* BTPROTO_HCI */)
    if descriptor >= 0 { close(descriptor); return false }
    return errno == EAFNOSUPPORT
}

@Test(.enabled(if: kernelLacksBluetooth)) func kernelHostReportsNoBluetoothSupport() async throws {
    let host = KernelHost(controllerIndex: 0)
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "KernelHostTests")) { log.append($0) }
    await #expect(throws: HostError.noBluetoothSupport) { try await host.start() }
    #expect(host.state == .unsupported)
    #expect(log.first(within: 1) { if case .stateChanged(.unsupported) = $0 { true } else { nil } } == true)
    await #expect(throws: HostError.notPoweredOn(.unsupported)) { try await host.startScan(ScanOptions()) }
    host.connect(to: PeerDevices.alpha, options: ConnectOptions())
    #expect(log.first(within: 1) { $0.connectionFailure }?.1 == .notPoweredOn(.unsupported))
}
