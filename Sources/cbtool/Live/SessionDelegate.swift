// The central manager's and peripherals' delegate for cbtool: turns every callback into a SessionEvent.

import CoreBluetooth
import Foundation
import Synchronization

/// Posts each CoreBluetooth callback to an ``EventInbox`` (called on the manager's queue).
final class SessionDelegate: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate, @unchecked Sendable {
    let inbox: EventInbox
    /// True while a scan only prints what it discovers (`cbtool scan`): each discovery is posted with the
    /// peripheral's address, not the peripheral (``SessionEvent/advertised(address:addressType:advertisement:rssi:)``).
    /// Set from the command thread, read on the delegate queue for each discovery (an atomic, no lock).
    var keepsNoPeripherals: Bool {
        get { keepsNone.load(ordering: .relaxed) }
        set { keepsNone.store(newValue, ordering: .relaxed) }
    }
    private let keepsNone = Atomic<Bool>(false)

    init(inbox: EventInbox) {
        self.inbox = inbox
        super.init()
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        inbox.post(.stateChanged(central.state))
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        if keepsNoPeripherals {
            inbox.post(.advertised(address: CentralSession.name(peripheral), addressType: peripheral.addressType,
                                   advertisement: advertisementData, rssi: RSSI.intValue))
        } else {
            inbox.post(.discovered(peripheral, advertisement: advertisementData, rssi: RSSI.intValue))
        }
    }

    func centralManager(_ central: CBCentralManager, didFailToScanWithError error: any Error) {
        inbox.post(.scanFailed((error as? CBError)?.userInfo["OCBBackendReason"] as? String ?? "\(error)"))
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        inbox.post(.connected(peripheral))
    }

    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?) {
        inbox.post(.connectFailed(peripheral, error))
    }

    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: (any Error)?) {
        inbox.post(.disconnected(peripheral, error))
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
        inbox.post(.servicesDiscovered(error))
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverIncludedServicesFor service: CBService, error: (any Error)?) {
        inbox.post(.includedServicesDiscovered(service, error))
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) {
        inbox.post(.characteristicsDiscovered(service, error))
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: (any Error)?) {
        inbox.post(.descriptorsDiscovered(characteristic, error))
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        inbox.post(.characteristicValue(characteristic, characteristic.value, error))
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor descriptor: CBDescriptor, error: (any Error)?) {
        inbox.post(.descriptorValue(descriptor, descriptor.value, error))
    }

    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        inbox.post(.characteristicWritten(characteristic, error))
    }

    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor descriptor: CBDescriptor, error: (any Error)?) {
        inbox.post(.descriptorWritten(descriptor, error))
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: (any Error)?) {
        inbox.post(.notificationState(characteristic, isNotifying: characteristic.isNotifying, error))
    }

    func peripheral(_ peripheral: CBPeripheral, didReadRSSI RSSI: NSNumber, error: (any Error)?) {
        inbox.post(.rssi(RSSI.intValue, error))
    }

    func peripheral(_ peripheral: CBPeripheral, didCompletePairingWithError error: (any Error)?) {
        inbox.post(.paired(peripheral, error))
    }
}
