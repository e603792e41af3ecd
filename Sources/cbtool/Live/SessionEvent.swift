// One callback of the central manager or a peripheral, with the values it carried copied when it happened.

import CoreBluetooth
import Foundation

/// What the delegate saw, in the order it saw it (the manager's queue), for the command thread to wait on.
///
/// Values (characteristic values, descriptor values, advertisement data) are copied at callback time: a later
/// notification overwrites `CBCharacteristic.value`.
enum SessionEvent: @unchecked Sendable {
    /// `centralManagerDidUpdateState`.
    case stateChanged(CBManagerState)
    /// `didDiscover`: the advertisement dictionary (Apple's keys) and RSSI in dBm.
    case discovered(CBPeripheral, advertisement: [String: Any], rssi: Int)
    /// `didDiscover` while `cbtool scan` runs (``SessionDelegate/keepsNoPeripherals``): the peripheral's address and
    /// address type (Linux's `CBPeripheral.address`, `addressType`) instead of the peripheral, so the peripheral and
    /// its parsed advertisement are let go while the entry waits, with thousands waiting during a flood.
    case advertised(address: String, addressType: String?, advertisement: [String: Any], rssi: Int)
    /// `didConnect`.
    case connected(CBPeripheral)
    /// `didFailToConnect`.
    case connectFailed(CBPeripheral, (any Error)?)
    /// `didDisconnectPeripheral` (nil error after our own cancel).
    case disconnected(CBPeripheral, (any Error)?)
    /// `didDiscoverServices`.
    case servicesDiscovered((any Error)?)
    /// `didDiscoverIncludedServicesFor`.
    case includedServicesDiscovered(CBService, (any Error)?)
    /// `didDiscoverCharacteristicsFor`.
    case characteristicsDiscovered(CBService, (any Error)?)
    /// `didDiscoverDescriptorsFor`.
    case descriptorsDiscovered(CBCharacteristic, (any Error)?)
    /// `didUpdateValueFor` a characteristic: a read's answer or a notification/indication.
    case characteristicValue(CBCharacteristic, Data?, (any Error)?)
    /// `didUpdateValueFor` a descriptor (Apple-typed value: NSNumber, String or Data).
    case descriptorValue(CBDescriptor, Any?, (any Error)?)
    /// `didWriteValueFor` a characteristic.
    case characteristicWritten(CBCharacteristic, (any Error)?)
    /// `didWriteValueFor` a descriptor.
    case descriptorWritten(CBDescriptor, (any Error)?)
    /// `didUpdateNotificationStateFor`.
    case notificationState(CBCharacteristic, isNotifying: Bool, (any Error)?)
    /// `didReadRSSI`, dBm.
    case rssi(Int, (any Error)?)
    /// `didCompletePairingWithError` (Linux addition).
    case paired(CBPeripheral, (any Error)?)
    /// `didFailToScanWithError` (Linux addition): the reason line from `userInfo["OCBBackendReason"]`.
    case scanFailed(String)
    /// SIGINT or SIGTERM arrived (see ``InterruptSignal``).
    case interrupted
}
