// CBDescriptor: a discovered characteristic descriptor and its last value, typed as iOS types it.
internal import OCBCore
internal import OCBATT
package import OCBGATT
import Foundation

/// A descriptor of a characteristic (Apple's `CBDescriptor`; Core v5.4 Vol 3 Part G §3.3.3).
///
/// `value` has Apple's types: 0x2900 Extended Properties, 0x2902 CCCD and 0x2903 SCCD as `NSNumber` (UInt16,
/// little-endian on air); 0x2901 User Description as `String` (UTF-8); every other descriptor as `Data`.
open class CBDescriptor: CBAttribute, @unchecked Sendable {
    /// The descriptor as the link's GATT client discovered it (the one database model; this object is its view).
    package let attribute: GATTDescriptor
    private weak var owner: CBCharacteristic?
    var storedValue: Any?

    init(_ discovered: GATTDescriptor, characteristic: CBCharacteristic, lock: StateLock) {
        attribute = discovered
        owner = characteristic
        super.init(uuid: CBUUID(bluetoothUUID: discovered.uuid), lock: lock)
    }

    /// The descriptor's handle.
    var handle: AttributeHandle { attribute.handle }

    /// The characteristic the descriptor belongs to (weak, as in iOS 15+).
    open var characteristic: CBCharacteristic? { lock.run { owner } }
    /// The last value read (see the type's note for its type); nil before.
    open var value: Any? { lock.run { storedValue } }

    /// Types descriptor bytes as iOS does (see the type's note); too-short numbers stay `Data`.
    static func typedValue(uuid: BluetoothUUID, bytes: [UInt8]) -> Any {
        switch uuid.uuid16 {
        case 0x2900, 0x2902, 0x2903:
            var reader = ByteReader(bytes)
            if let number = try? reader.readUInt16() { return NSNumber(value: number) }
            return Data(bytes)
        case 0x2901:
            return String(decoding: bytes, as: UTF8.self)
        default:
            return Data(bytes)
        }
    }

    open override var description: String {
        "<CBDescriptor: \(Unmanaged.passUnretained(self).toOpaque()), UUID = \(uuid), value = \(value.map { "\($0)" } ?? "(null)")>"
    }
}
