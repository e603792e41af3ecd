// Which Linux HCI controllers exist, whether they are up, and their addresses (HCIGETDEVLIST, HCIGETDEVINFO).

import OCBCore
@_implementationOnly import COCBBlueZ
import Glibc

/// One controller as the kernel describes it (struct hci_dev_info, BlueZ `lib/hci.h`).
public struct HCIDeviceInfo: Hashable, Sendable, CustomStringConvertible {
    /// The index N of hciN.
    public var index: UInt16
    /// The kernel's name, e.g. "hci0".
    public var name: String
    /// The controller's public address (00:00:00:00:00:00 until it has been up once).
    public var address: BluetoothAddress
    /// The device flags (bit 0 HCI_UP, bit 2 HCI_RUNNING, ...).
    public var flags: UInt32
    /// The bus (low 4 bits of `type`: 0 virtual, 1 USB, 3 UART, ...).
    public var bus: UInt8

    /// True when the controller is up (HCI_UP): usable on the raw channel, busy for the user channel.
    public var isUp: Bool { flags & 1 != 0 }

    public var description: String { "\(name) \(address) \(isUp ? "up" : "down")" }
}

/// Enumerates the kernel's HCI controllers.
public enum HCIDeviceList {
    /// Every controller the kernel knows (at most 16). Throws ``HCITransportError/noBluetoothSupport`` on a kernel
    /// without Bluetooth, or the mapped error of the ioctls.
    public static func devices() throws(HCITransportError) -> [HCIDeviceInfo] {
        let descriptor = cbluez_hci_socket()
        guard descriptor >= 0 else { throw HCITransportError(errno: errno, operation: "open an HCI socket") }
        defer { Glibc.close(descriptor) }
        var ids = [UInt16](repeating: 0, count: 16)
        var options = [UInt32](repeating: 0, count: 16)
        let count = cbluez_hci_dev_list(descriptor, &ids, &options, 16)
        guard count >= 0 else { throw HCITransportError(errno: errno, operation: "list HCI controllers (HCIGETDEVLIST)") }
        var devices: [HCIDeviceInfo] = []
        for id in ids.prefix(Int(count)) {
            var info = hci_dev_info()
            guard cbluez_hci_dev_info(descriptor, id, &info) == 0 else {
                let code = errno
                if code == ENODEV { continue } // removed meanwhile
                throw HCITransportError(errno: code, operation: "read hci\(id) (HCIGETDEVINFO)", controller: "hci\(id)")
            }
            let name = withUnsafeBytes(of: info.name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let addressBytes = withUnsafeBytes(of: info.bdaddr) { Array($0) }
            devices.append(HCIDeviceInfo(index: id, name: name.isEmpty ? "hci\(id)" : name,
                                         address: BluetoothAddress(littleEndianBytes: addressBytes) ?? .zero,
                                         flags: info.flags, bus: info.type & 0x0F))
        }
        return devices
    }
}
