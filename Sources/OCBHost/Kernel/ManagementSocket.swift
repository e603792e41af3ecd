// The kernel's management interface: an HCI socket on HCI_CHANNEL_CONTROL, one command or event per read or write.

@_implementationOnly import COCBBlueZ
import Dispatch
import Foundation
import Glibc

/// A management socket: socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI) bound to HCI_DEV_NONE (0xFFFF) on
/// HCI_CHANNEL_CONTROL (3), the channel bluetoothd and btmgmt use (BlueZ doc/mgmt-api.txt). Several clients may hold
/// it at once; each gets the events for every controller, and Command Complete/Status for its own commands only.
///
/// Any process may open it. Without CAP_NET_ADMIN it is *untrusted*: it still receives Index Added/Removed and New
/// Settings (power changes), but commands such as Start Discovery answer Permission Denied (0x14), and Discovering and
/// Device Found events are not delivered to it.
final class ManagementSocket: @unchecked Sendable {
    private let channel: DescriptorChannel

    /// Opens and binds the socket; each event decoded (or the reason one was not) goes to `onEvent` on `queue`,
    /// `onEnd` once when the socket ends (nil after ``close()``). Throws the mapped ``HCITransportError``
    /// (``HCITransportError/noBluetoothSupport`` on a kernel without Bluetooth).
    init(queue: DispatchQueue, onEvent: @escaping @Sendable (Result<ManagementEvent, ManagementEventError>) -> Void,
         onEnd: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        let descriptor = cbluez_hci_socket()
        guard descriptor >= 0 else { throw HCITransportError(errno: errno, operation: "open a management socket", controller: "mgmt") }
        guard cbluez_hci_bind(descriptor, UInt16(HCI_DEV_NONE), UInt16(HCI_CHANNEL_CONTROL)) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw HCITransportError(errno: code, operation: "bind the management channel", controller: "mgmt")
        }
        channel = DescriptorChannel(descriptor: descriptor, queue: queue, readCapacity: 65_542, operation: "management socket",
                                     datagrams: true)
        channel.start(onChunk: { bytes in
            do throws(ManagementEventError) { onEvent(.success(try ManagementEvent(bytes: bytes))) } catch { onEvent(.failure(error)) }
            return nil
        }, onEnd: onEnd)
    }

    /// Writes one command. Throws ``HCITransportError/notOpen`` after close, or the mapped write error.
    func send(_ command: ManagementCommand) throws(HCITransportError) {
        try channel.write(command.bytes)
    }

    /// Closes the socket; `onEnd(nil)` follows on the queue.
    func close() {
        channel.close()
    }
}
