// CBPeripheralDelegate: a peripheral's callbacks, every one optional with an empty default implementation.
import Foundation

/// The delegate of a `CBPeripheral` (Apple's `CBPeripheralDelegate`). Called on the manager's queue, per
/// peripheral in the order the requests were made; every request ends in exactly one of these.
public protocol CBPeripheralDelegate: NSObjectProtocol {
    /// The GAP Device Name changed (read after connecting, or a new advertised local name).
    func peripheralDidUpdateName(_ peripheral: CBPeripheral)
    /// A Service Changed indication invalidated these (previously discovered) services.
    func peripheral(_ peripheral: CBPeripheral, didModifyServices invalidatedServices: [CBService])
    /// The answer to `readRSSI()` of iOS 5-7, the value in `peripheral.rssi`. Never called here, as on iOS 8+:
    /// `readRSSI()` answers `peripheral(_:didReadRSSI:error:)` only (apps written for both kept both methods and
    /// would handle one reading twice).
    @available(*, deprecated, message: "Use peripheral(_:didReadRSSI:error:) instead")
    func peripheralDidUpdateRSSI(_ peripheral: CBPeripheral, error: (any Error)?)
    /// The answer to `readRSSI()`: dBm, or an error (then `RSSI` is 0).
    func peripheral(_ peripheral: CBPeripheral, didReadRSSI RSSI: NSNumber, error: (any Error)?)
    /// The answer to `discoverServices(_:)`; the services are in `peripheral.services`.
    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?)
    /// The answer to `discoverIncludedServices(_:for:)`; they are in `service.includedServices`.
    func peripheral(_ peripheral: CBPeripheral, didDiscoverIncludedServicesFor service: CBService, error: (any Error)?)
    /// The answer to `discoverCharacteristics(_:for:)`; they are in `service.characteristics`.
    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?)
    /// The answer to `readValue(for:)`, or a notification/indication; the value is `characteristic.value`.
    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?)
    /// The answer to `writeValue(_:for:type:)` with `.withResponse`.
    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: (any Error)?)
    /// The answer to `setNotifyValue(_:for:)`; `characteristic.isNotifying` holds the new state.
    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: (any Error)?)
    /// The answer to `discoverDescriptors(for:)`; they are in `characteristic.descriptors`.
    func peripheral(_ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: (any Error)?)
    /// The answer to `readValue(for:)` on a descriptor; the value is `descriptor.value`.
    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor descriptor: CBDescriptor, error: (any Error)?)
    /// The answer to `writeValue(_:for:)` on a descriptor.
    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor descriptor: CBDescriptor, error: (any Error)?)
    /// `canSendWriteWithoutResponse` became true again.
    func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral)
    /// The answer to `openL2CAPChannel(_:)`: the open channel, or nil and an error. On Linux always nil with
    /// `CBError.operationNotSupported` (see `openL2CAPChannel(_:)`).
    func peripheral(_ peripheral: CBPeripheral, didOpen channel: CBL2CAPChannel?, error: (any Error)?)
    /// Linux only: the answer to ``CBPeripheral/pair()``: nil once the link is encrypted (``CBPeripheral/isEncrypted``,
    /// ``CBPeripheral/isBonded``), else why not: `CBError.peerRemovedPairingInformation` (the peer lost the bond: remove
    /// it with `cbtool bonds remove` and pair again), `.encryptionTimedOut` (no answer within the 30 s SMP timeout),
    /// `.unknown` with `userInfo["OCBBackendReason"]` (e.g. "pairing … failed: 0x05 Pairing Not Supported (sent by the
    /// peer)"), `.peripheralDisconnected`, `.notConnected`.
    func peripheral(_ peripheral: CBPeripheral, didCompletePairingWithError error: (any Error)?)
}

extension CBPeripheralDelegate {
    /// Default: does nothing (`peripheral.name` is updated anyway).
    public func peripheralDidUpdateName(_ peripheral: CBPeripheral) {}
    /// Default: does nothing; the invalidated services are already gone from `peripheral.services`.
    public func peripheral(_ peripheral: CBPeripheral, didModifyServices invalidatedServices: [CBService]) {}
    /// Default: does nothing (never called on Linux).
    public func peripheralDidUpdateRSSI(_ peripheral: CBPeripheral, error: (any Error)?) {}
    /// Default: drops the RSSI.
    public func peripheral(_ peripheral: CBPeripheral, didReadRSSI RSSI: NSNumber, error: (any Error)?) {}
    /// Default: does nothing (`peripheral.services` is updated anyway).
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {}
    /// Default: does nothing (`service.includedServices` is updated anyway).
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverIncludedServicesFor service: CBService, error: (any Error)?) {}
    /// Default: does nothing (`service.characteristics` is updated anyway).
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) {}
    /// Default: does nothing (`characteristic.value` is updated anyway).
    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {}
    /// Default: does nothing.
    public func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: (any Error)?) {}
    /// Default: does nothing (`characteristic.isNotifying` is updated anyway).
    public func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: (any Error)?) {}
    /// Default: does nothing (`characteristic.descriptors` is updated anyway).
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: (any Error)?) {}
    /// Default: does nothing (`descriptor.value` is updated anyway).
    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor descriptor: CBDescriptor, error: (any Error)?) {}
    /// Default: does nothing.
    public func peripheral(_ peripheral: CBPeripheral, didWriteValueFor descriptor: CBDescriptor, error: (any Error)?) {}
    /// Default: does nothing.
    public func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral) {}
    /// Default: does nothing (on Linux the answer is always a nil channel and an error).
    public func peripheral(_ peripheral: CBPeripheral, didOpen channel: CBL2CAPChannel?, error: (any Error)?) {}
    /// Default: does nothing.
    public func peripheral(_ peripheral: CBPeripheral, didCompletePairingWithError error: (any Error)?) {}
}
