// A GATT database arranged for printing: GATT's own service, characteristic and descriptor values, with values read.

import OCBCore
import OCBATT
import OCBGATT

/// A descriptor in the tree: the GATT client's ``OCBGATT/GATTDescriptor`` and the value last read, if any.
public struct GATTTreeDescriptor: Hashable, Sendable {
    /// The descriptor as GATT discovered it (handle, type).
    public var descriptor: GATTDescriptor
    /// The value read, at most 512 bytes (Core v5.4 Vol 3 Part F §3.2.9); nil when not read.
    public var value: [UInt8]?

    /// Makes the node.
    public init(_ descriptor: GATTDescriptor, value: [UInt8]? = nil) {
        self.descriptor = descriptor
        self.value = value
    }

    /// The descriptor's attribute handle.
    public var handle: AttributeHandle { descriptor.handle }
    /// The descriptor's type.
    public var uuid: BluetoothUUID { descriptor.uuid }
}

/// A characteristic in the tree: the GATT client's ``OCBGATT/GATTCharacteristic``, its value and its descriptors.
public struct GATTTreeCharacteristic: Hashable, Sendable {
    /// The characteristic as GATT discovered it (declaration, value and end handles, properties, type).
    public var characteristic: GATTCharacteristic
    /// The value read, at most 512 bytes; nil when not read.
    public var value: [UInt8]?
    /// Its descriptors in handle order.
    public var descriptors: [GATTTreeDescriptor]

    /// Makes the node.
    public init(_ characteristic: GATTCharacteristic, value: [UInt8]? = nil, descriptors: [GATTTreeDescriptor] = []) {
        self.characteristic = characteristic
        self.value = value
        self.descriptors = descriptors
    }

    /// The characteristic declaration's handle.
    public var declarationHandle: AttributeHandle { characteristic.declarationHandle }
    /// The Characteristic Value handle.
    public var valueHandle: AttributeHandle { characteristic.valueHandle }
    /// The characteristic's type.
    public var uuid: BluetoothUUID { characteristic.uuid }
    /// The declaration's Properties (Vol 3 Part G §3.3.1.1).
    public var properties: GATTCharacteristicProperties { characteristic.properties }

    /// The Characteristic Presentation Format (0x2904, Vol 3 Part G §3.3.3.5) among the descriptors read, if any.
    public var presentationFormat: PresentationFormat? {
        descriptors.lazy.filter { $0.uuid == BluetoothUUID(0x2904) }.compactMap { $0.value.flatMap(PresentationFormat.init(bytes:)) }.first
    }
}

/// An include declaration in the tree (Vol 3 Part G §3.2): GATT's ``OCBGATT/GATTIncludedService`` when its UUID is
/// known; a capture may show one whose 128-bit UUID was never read (the declaration carries only 16-bit ones).
public struct GATTTreeInclude: Hashable, Sendable {
    /// The include declaration's handle.
    public var handle: AttributeHandle
    /// The included service's first handle.
    public var startHandle: AttributeHandle
    /// The included service's last handle.
    public var endHandle: AttributeHandle
    /// The included service's UUID; nil when not known.
    public var uuid: BluetoothUUID?

    /// The node of an include declaration as GATT discovered it.
    public init(_ include: GATTIncludedService) {
        self.init(handle: include.declarationHandle, startHandle: include.startHandle, endHandle: include.endHandle, uuid: include.uuid)
    }

    /// The node of an include declaration whose UUID may be unknown.
    public init(handle: AttributeHandle, startHandle: AttributeHandle, endHandle: AttributeHandle, uuid: BluetoothUUID?) {
        self.handle = handle
        self.startHandle = startHandle
        self.endHandle = endHandle
        self.uuid = uuid
    }
}

/// A service in the tree: the GATT client's ``OCBGATT/GATTService``, its includes and characteristics.
public struct GATTTreeService: Hashable, Sendable {
    /// The service as GATT discovered it (type, primary or secondary, handle range).
    public var service: GATTService
    /// Its include declarations in handle order.
    public var includes: [GATTTreeInclude]
    /// Its characteristics in handle order.
    public var characteristics: [GATTTreeCharacteristic]

    /// Makes the node.
    public init(_ service: GATTService, includes: [GATTTreeInclude] = [], characteristics: [GATTTreeCharacteristic] = []) {
        self.service = service
        self.includes = includes
        self.characteristics = characteristics
    }

    /// The service declaration's handle.
    public var startHandle: AttributeHandle { service.startHandle }
    /// The service's last handle.
    public var endHandle: AttributeHandle { service.endHandle }
    /// The service's type.
    public var uuid: BluetoothUUID { service.uuid }
    /// True for «Primary Service» (0x2800), false for «Secondary Service» (0x2801).
    public var isPrimary: Bool { service.isPrimary }
}
