// Tests of the kernel L2CAP ATT socket on a machine whose kernel has no Bluetooth, and its address-type mapping.

import OCBCore
import Dispatch
import Testing
@testable import OCBHost

@Suite struct KernelL2CAPSocketTests {
    @Test(.enabled(if: kernelHasNoBluetooth, "this kernel has Bluetooth"))
    func connectWithoutKernelBluetoothSaysSo() throws {
        let socket = L2CAPSocket()
        let peer = try #require(BluetoothAddress("C0:11:22:33:44:55"))
        #expect(throws: HCITransportError.noBluetoothSupport) {
            try socket.connect(to: peer, addressType: .random, timeout: .seconds(1), queue: DispatchQueue(label: "l2cap"),
                               onConnect: { _ in Issue.record("no connect callback expected") },
                               onPDU: { _ in }, onClose: { _ in })
        }
        #expect(socket.connectionHandle == nil)
        #expect(throws: HCITransportError.notOpen) { try socket.send([0x02, 0x05, 0x02]) }
        #expect(throws: HCITransportError.notOpen) { try socket.setSecurity(.medium) }
        socket.cancel()
        socket.close()
    }

    @Test func addressTypesMapToKernelValues() throws {
        // BDADDR_LE_PUBLIC 0x01, BDADDR_LE_RANDOM 0x02 (BlueZ lib/bluetooth.h).
        #expect(L2CAPSocket.kernelAddressType(.public) == 1)
        #expect(L2CAPSocket.kernelAddressType(.publicIdentity) == 1)
        #expect(L2CAPSocket.kernelAddressType(.random) == 2)
        #expect(L2CAPSocket.kernelAddressType(.randomIdentity) == 2)
        #expect(L2CAPSocket.kernelAddressType(.other(7)) == nil)
        let peer = try #require(BluetoothAddress("C0:11:22:33:44:55"))
        #expect(throws: HCITransportError.self) {
            try L2CAPSocket().connect(to: peer, addressType: .other(7), queue: DispatchQueue(label: "l2cap"),
                                      onConnect: { _ in }, onPDU: { _ in }, onClose: { _ in })
        }
        #expect(L2CAPSocket.attChannel == 0x0004)
    }
}
