// A GATT database as plain values (services, includes, characteristics, descriptors) for printing.

import OCBCore

/// A descriptor as the tree printer shows it.
public struct GATTTreeDescriptor: Hashable, Sendable {
    /// The descriptor's handle.
    public var handle: UInt16
    /// Its type (0x2902 CCCD, 0x2901 User Description, 0x2904 Presentation Format, …).
    public var uuid: BluetoothUUID
    /// Its value when known (read or written).
    public var value: [UInt8]?

    /// Makes a descriptor.
    public init(handle: UInt16, uuid: BluetoothUUID, value: [UInt8]? = nil) {
        self.handle = handle
        self.uuid = uuid
        self.value = value
    }
}

/// A characteristic as the tree printer shows it (Core v5.4 Vol 3 Part G §3.3).
public struct GATTTreeCharacteristic: Hashable, Sendable {
    /// The declaration's handle.
    public var declarationHandle: UInt16
    /// The value's handle.
    public var valueHandle: UInt16
    /// The characteristic's type.
    public var uuid: BluetoothUUID
    /// The declaration's properties.
    public var properties: CharacteristicProperties
    /// The value when known (read, notified or indicated), else nil.
    public var value: [UInt8]?
    /// Its descriptors in handle order.
    public var descriptors: [GATTTreeDescriptor]

    /// Makes a characteristic.
    public init(declarationHandle: UInt16, valueHandle: UInt16, uuid: BluetoothUUID, properties: CharacteristicProperties,
                value: [UInt8]? = nil, descriptors: [GATTTreeDescriptor] = []) {
        self.declarationHandle = declarationHandle
        self.valueHandle = valueHandle
        self.uuid = uuid
        self.properties = properties
        self.value = value
        self.descriptors = descriptors
    }

    /// The presentation format from a 0x2904 descriptor whose value is known, if any.
    public var presentationFormat: PresentationFormat? {
        descriptors.lazy.filter { $0.uuid == BluetoothUUID(0x2904) }.compactMap { $0.value.flatMap(PresentationFormat.init(bytes:)) }.first
    }
}

/// An included service reference (Core v5.4 Vol 3 Part G §3.2).
public struct GATTTreeInclude: Hashable, Sendable {
    /// The include declaration's handle; nil when not known (CoreBluetooth reports included services without it).
    public var handle: UInt16?
    /// The included service's first handle.
    public var startHandle: UInt16
    /// The included service's last handle.
    public var endHandle: UInt16
    /// The included service's UUID when the declaration carries it (16-bit UUIDs only), else nil.
    public var uuid: BluetoothUUID?

    /// Makes an include.
    public init(handle: UInt16?, startHandle: UInt16, endHandle: UInt16, uuid: BluetoothUUID?) {
        self.handle = handle
        self.startHandle = startHandle
        self.endHandle = endHandle
        self.uuid = uuid
    }
}

/// A service as the tree printer shows it.
public struct GATTTreeService: Hashable, Sendable {
    /// The service declaration's handle.
    public var startHandle: UInt16
    /// The last handle of the service's group.
    public var endHandle: UInt16
    /// The service's type.
    public var uuid: BluetoothUUID
    /// Primary (0x2800) or secondary (0x2801).
    public var isPrimary: Bool
    /// Included services.
    public var includes: [GATTTreeInclude]
    /// Characteristics in handle order.
    public var characteristics: [GATTTreeCharacteristic]

    /// Makes a service.
    public init(startHandle: UInt16, endHandle: UInt16, uuid: BluetoothUUID, isPrimary: Bool = true,
                includes: [GATTTreeInclude] = [], characteristics: [GATTTreeCharacteristic] = []) {
        self.startHandle = startHandle
        self.endHandle = endHandle
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.includes = includes
        self.characteristics = characteristics
    }
}
