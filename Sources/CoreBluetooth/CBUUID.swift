// CBUUID: Apple's Bluetooth UUID object over OCBCore.BluetoothUUID, with SIG names in its description.
package import OCBCore
import Foundation

/// A Bluetooth UUID of 16, 32 or 128 bits (Apple's `CBUUID`; Core v5.4 Vol 3 Part B §2.5.1).
///
/// Short forms lie on the Base UUID, so `CBUUID(string: "180D") == CBUUID(string: "0000180D-0000-1000-8000-00805F9B34FB")`.
/// `uuidString` and `data` use the shortest form ("180D", 2 bytes big-endian `18 0D`); `description` gives the
/// SIG name when the Bluetooth SIG assigned numbers know one ("Heart Rate"), otherwise `uuidString`.
///
/// Malformed input: Apple raises an Objective-C exception for an invalid string or data length. Here nothing traps:
/// `init(string:)` / `init(data:)` log `[CoreBluetooth] API MISUSE: ...` and yield the all-zero 128-bit UUID
/// `00000000-0000-0000-0000-000000000000`, which matches no real attribute. Use ``init(validating:)`` to get `nil`
/// instead when the text comes from outside.
open class CBUUID: NSObject, NSCopying, @unchecked Sendable {
    /// The UUID value (this package's layers work with `OCBCore.BluetoothUUID`); set only while initialising.
    package private(set) var bluetoothUUID = BluetoothUUID(high: 0, low: 0)

    /// NSObject's `init()`, the designated initialiser as in Apple's SDK (so a subclass inherits the convenience
    /// initialisers): `CBUUID()` is the all-zero 128-bit UUID `00000000-0000-0000-0000-000000000000`, which matches no
    /// real attribute (as a malformed string gives).
    public override init() {
        super.init()
    }

    /// Makes a CBUUID from a BluetoothCore UUID.
    package convenience init(bluetoothUUID: BluetoothUUID) {
        self.init()
        self.bluetoothUUID = bluetoothUUID
    }

    /// Parses "180D", "0000180D" or "0000180D-0000-1000-8000-00805F9B34FB" (either case).
    /// Malformed text logs an API misuse and gives the zero UUID (see the type's note).
    public convenience init(string theString: String) {
        if let uuid = BluetoothUUID(theString) {
            self.init(bluetoothUUID: uuid)
        } else {
            Diagnostics.misuse("CBUUID(string:) given an invalid UUID string \"\(theString.prefix(64))\"; using 00000000-0000-0000-0000-000000000000")
            self.init(bluetoothUUID: BluetoothUUID(high: 0, low: 0))
        }
    }

    /// Makes a UUID from 2, 4 or 16 bytes in big-endian (text) order. Other lengths log an API misuse and give the zero UUID.
    public convenience init(data theData: Data) {
        if let uuid = Self.uuid(bigEndian: [UInt8](theData)) {
            self.init(bluetoothUUID: uuid)
        } else {
            Diagnostics.misuse("CBUUID(data:) given \(theData.count) bytes (2, 4 or 16 expected); using 00000000-0000-0000-0000-000000000000")
            self.init(bluetoothUUID: BluetoothUUID(high: 0, low: 0))
        }
    }

    /// Makes a 128-bit UUID from a Foundation UUID.
    public convenience init(nsuuid theUUID: UUID) {
        let u = theUUID.uuid
        let bytes = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
        self.init(bluetoothUUID: BluetoothUUID(bigEndianBytes: bytes) ?? BluetoothUUID(high: 0, low: 0))
    }

    /// Linux only (an OpenCoreBluetooth addition, not in Apple's SDK): parses like ``init(string:)`` but returns nil
    /// for malformed text instead of logging and giving the zero UUID, for UUIDs typed by a user or read from a file.
    /// Accepts the forms of ``init(string:)``: 4, 8 or 36 hexadecimal characters (with dashes), either case.
    public convenience init?(validating string: String) {
        guard let uuid = BluetoothUUID(string) else { return nil }
        self.init(bluetoothUUID: uuid)
    }

    /// The shortest text form: "180D", "12345678" or the upper-case 128-bit form with dashes.
    open var uuidString: String { bluetoothUUID.description }

    /// The shortest big-endian form: 2, 4 or 16 bytes.
    open var data: Data {
        let bytes = bluetoothUUID.bigEndianBytes
        if bluetoothUUID.uuid16 != nil { return Data(bytes[2..<4]) }
        if bluetoothUUID.uuid32 != nil { return Data(bytes[0..<4]) }
        return Data(bytes)
    }

    /// The SIG-assigned name (Bluetooth Assigned Numbers) when the UUID has one, otherwise `uuidString`.
    open override var description: String { Self.nameLookup(bluetoothUUID) ?? uuidString }

    open override var debugDescription: String { description }

    /// True for another `CBUUID` with the same 128-bit value, whatever the form it was made from
    /// (`CBUUID(string: "180D")` equals `CBUUID(string: "0000180D-0000-1000-8000-00805F9B34FB")`).
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CBUUID else { return false }
        return other.bluetoothUUID == bluetoothUUID
    }

    /// Hash of the 128-bit value, consistent with ``isEqual(_:)``.
    open override var hash: Int { bluetoothUUID.hashValue }

    /// Returns `self`: a `CBUUID` is immutable (NSCopying).
    open func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: Name lookup hook

    private static let lookupLock = StateLock()
    nonisolated(unsafe) private static var lookupStorage: @Sendable (BluetoothUUID) -> String? = { AssignedNumbers.name(for: $0) }

    /// Where `description` finds SIG names (e.g. 0x180D → "Heart Rate"); returns nil for unnamed UUIDs.
    /// The default is the Bluetooth SIG assigned-numbers table (`OCBCore.AssignedNumbers`); apps need not set it.
    package static var nameLookup: @Sendable (BluetoothUUID) -> String? {
        get { lookupLock.run { lookupStorage } }
        set { lookupLock.run { lookupStorage = newValue } }
    }

    /// 16-bit and 32-bit values come first in big-endian order: `18 0D` → 0x180D.
    static func uuid(bigEndian bytes: [UInt8]) -> BluetoothUUID? {
        switch bytes.count {
        case 2, 4, 16: BluetoothUUID(littleEndianBytes: bytes.reversed())
        default: nil
        }
    }
}
