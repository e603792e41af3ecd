// Finds the characteristic or descriptor a UUID|HANDLE operand names in a discovered database.

import OCBCore
import OCBATT
import OCBToolKit
import CoreBluetooth

/// What a UUID|HANDLE operand named.
enum FoundAttribute {
    /// A characteristic (by its UUID or its value handle).
    case characteristic(CBCharacteristic)
    /// A descriptor (by its UUID or handle).
    case descriptor(CBDescriptor)
}

extension PeripheralDatabase {
    /// The attribute `target` names: a handle matches a characteristic's value handle or a descriptor's handle; a
    /// UUID matches the first characteristic of that type in handle order, else the first descriptor.
    /// Throws a one-line failure naming what the database has at that handle, or that nothing has that UUID.
    func find(_ target: AttributeTarget, address: String) throws(ToolError) -> FoundAttribute {
        switch target {
        case .handle(let handle):
            if let characteristic = characteristics.first(where: { $0.attribute.valueHandle == handle }) { return .characteristic(characteristic) }
            if let descriptor = descriptors.first(where: { $0.attribute.handle == handle }) { return .descriptor(descriptor) }
            if let characteristic = characteristics.first(where: { $0.attribute.declarationHandle == handle }) {
                throw .failure("\(GATTText.handle(handle)) on \(address) is the declaration of \(GATTText.uuid(characteristic.uuid.bluetoothUUID)); "
                               + "its value is at \(GATTText.handle(characteristic.valueAttributeHandle))")
            }
            if let service = services.first(where: { $0.attribute.startHandle == handle }) {
                throw .failure("\(GATTText.handle(handle)) on \(address) is the declaration of service \(GATTText.uuid(service.uuid.bluetoothUUID)), "
                               + "not a characteristic value or descriptor")
            }
            throw .failure("no characteristic value or descriptor at handle \(GATTText.handle(handle)) on \(address) (see `cbtool gatt \(address)`)")
        case .uuid(let uuid):
            if let characteristic = characteristics.first(where: { $0.uuid.bluetoothUUID == uuid }) { return .characteristic(characteristic) }
            if let descriptor = descriptors.first(where: { $0.uuid.bluetoothUUID == uuid }) { return .descriptor(descriptor) }
            throw .failure("\(address) has no characteristic or descriptor \(GATTText.uuid(uuid)) (see `cbtool gatt \(address)`)")
        }
    }
}
