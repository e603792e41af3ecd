// How discovery results merge into a peripheral's service, characteristic and descriptor objects.
internal import OCBCore
internal import OCBATT
internal import OCBGATT
import Foundation

extension CBPeripheral {
    /// Merges primary services (lock held). Known services keep their objects (same start handle and UUID);
    /// an unfiltered discovery is complete, so services missing from it are invalidated and dropped.
    func mergeServices(_ found: [GATTService], filter: [BluetoothUUID]?) {
        let wanted = found.filter { service in filter.map { $0.contains(service.uuid) } ?? true }
        let existing = storedServices ?? []
        var result: [CBService] = filter == nil ? [] : existing
        for item in wanted {
            if let known = existing.first(where: { $0.startHandle == item.startHandle && $0.uuid.bluetoothUUID == item.uuid && !$0.invalidated }) {
                if !result.contains(where: { $0 === known }) { result.append(known) }
            } else {
                result.removeAll { $0.startHandle == item.startHandle }
                result.append(CBService(item, peripheral: self, lock: lock))
            }
        }
        for old in existing where !result.contains(where: { $0 === old }) { old.invalidateTree() }
        storedServices = result.sorted { $0.startHandle < $1.startHandle }
    }

    /// Sets a service's included services from its include declarations (lock held), reusing the objects of known
    /// services; an included service not known yet is a secondary one (Vol 3 Part G §3.2).
    func mergeIncluded(_ found: [GATTIncludedService], filter: [BluetoothUUID]?, into service: CBService) {
        let wanted = found.filter { item in filter.map { $0.contains(item.uuid) } ?? true }
        let known = (storedServices ?? []) + (service.storedIncludedServices ?? [])
        service.storedIncludeDeclarations = found
        service.storedIncludedServices = wanted.map { item in
            known.first { $0.startHandle == item.startHandle && $0.uuid.bluetoothUUID == item.uuid }
                ?? CBService(GATTService(uuid: item.uuid, isPrimary: false, startHandle: item.startHandle, endHandle: item.endHandle),
                             peripheral: self, lock: lock)
        }
    }

    /// Merges characteristics into a service (lock held), keeping known objects (same declaration handle).
    func mergeCharacteristics(_ found: [GATTCharacteristic], filter: [BluetoothUUID]?, into service: CBService) {
        let wanted = found.filter { item in
            (filter.map { $0.contains(item.uuid) } ?? true)
                && item.declarationHandle >= service.startHandle && item.valueHandle <= service.endHandle
        }
        var result = service.storedCharacteristics ?? []
        for item in wanted where !result.contains(where: { $0.declarationHandle == item.declarationHandle && $0.uuid.bluetoothUUID == item.uuid }) {
            result.removeAll { $0.declarationHandle == item.declarationHandle }
            var bounded = item
            bounded.endHandle = min(max(item.endHandle, item.valueHandle), service.endHandle)
            result.append(CBCharacteristic(bounded, service: service, lock: lock))
        }
        service.storedCharacteristics = result.sorted { $0.declarationHandle < $1.declarationHandle }
    }

    /// Sets a characteristic's descriptors (lock held), keeping known objects (same handle and UUID).
    func mergeDescriptors(_ found: [GATTDescriptor], into characteristic: CBCharacteristic) {
        let existing = characteristic.storedDescriptors ?? []
        characteristic.storedDescriptors = found
            .filter { $0.handle > characteristic.valueHandle && $0.handle <= characteristic.endHandle }
            .sorted { $0.handle < $1.handle }
            .map { item in
                existing.first { $0.handle == item.handle && $0.uuid.bluetoothUUID == item.uuid }
                    ?? CBDescriptor(item, characteristic: characteristic, lock: lock)
            }
    }

    /// The characteristic whose value handle is `handle`, if discovered and valid (lock held).
    func characteristic(valueHandle handle: AttributeHandle) -> CBCharacteristic? {
        for service in storedServices ?? [] {
            if let found = service.storedCharacteristics?.first(where: { $0.valueHandle == handle && !$0.invalidated }) { return found }
        }
        return nil
    }

    /// Invalidates every attribute and forgets the services (lock held): after a disconnect or power loss.
    func invalidateAllAttributes() {
        for service in storedServices ?? [] {
            service.invalidateTree()
            for included in service.storedIncludedServices ?? [] { included.invalidateTree() }
        }
        storedServices = nil
    }
}
