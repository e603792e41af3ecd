// HCI over the Linux kernel's HCI socket: AF_BLUETOOTH/BTPROTO_HCI bound to hciN, raw or user channel.

@_implementationOnly import COCBBlueZ
import Dispatch
import Foundation
import Glibc
import OCBHCI

/// The Linux HCI socket transport (kernel ABI from BlueZ `lib/hci.h`): socket(AF_BLUETOOTH, SOCK_RAW,
/// BTPROTO_HCI) bound to controller hciN.
///
/// Each read and write is one whole packet with its H4 indicator first.
/// - ``Channel/raw`` (HCI_CHANNEL_RAW): shares the controller with the kernel and bluetoothd; the controller
///   must be up; a filter lets every event and ACL packet through. Sending commands needs CAP_NET_RAW.
/// - ``Channel/user`` (HCI_CHANNEL_USER): exclusive; the controller must be down and not claimed by
///   bluetoothd (else ``HCITransportError/busy(controller:)``); needs CAP_NET_ADMIN. A management socket watches
///   for the controller's removal (Index Removed), which ends the transport with ``HCITransportError/controllerDown``.
///
/// On a kernel without Bluetooth, open throws ``HCITransportError/noBluetoothSupport``.
public final class HCISocketTransport: HCITransport, @unchecked Sendable {
    /// The HCI socket channel.
    public enum Channel: UInt16, Hashable, Sendable, CustomStringConvertible {
        /// HCI_CHANNEL_RAW (0): shared with the kernel's own host stack.
        case raw = 0
        /// HCI_CHANNEL_USER (1): exclusive use of a controller that is down.
        case user = 1

        public var description: String { self == .raw ? "raw channel" : "user channel" }
    }

    /// The controller index N of hciN.
    public let controller: UInt16
    /// The channel bound on open.
    public let channel: Channel
    private let lock = NSLock()
    private var descriptorChannel: DescriptorChannel?
    private var removalWatch: ManagementSocket?
    private var opened = false

    /// Makes a transport for hci`controller` on `channel`; nothing is opened yet.
    public init(controller: UInt16, channel: Channel) {
        self.controller = controller
        self.channel = channel
    }

    /// The controller's name, "hciN".
    public var controllerName: String { "hci\(controller)" }

    /// Creates the socket, binds it and (raw channel) sets the event/ACL filter, then starts reading.
    /// Throws ``HCITransportError/noBluetoothSupport`` (EAFNOSUPPORT), ``HCITransportError/permissionDenied(operation:)``,
    /// ``HCITransportError/busy(controller:)``, ``HCITransportError/noSuchController(_:)``, or ``HCITransportError/alreadyOpen``.
    public func open(queue: DispatchQueue, onPacket: @escaping @Sendable (HCIPacket) -> Void,
                     onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        try open(queue: queue, onPackets: { walk in _ = walk { type, bytes in onPacket(HCIPacket(type: type, bytes: Array(bytes))); return .next } },
                 onClose: onClose)
    }

    /// Opens as ``open(queue:onPacket:onClose:)``, handing each datagram's packet over as a walk of one packet, a
    /// slice of the datagram.
    public func open(queue: DispatchQueue, onPackets: @escaping @Sendable (HCIPacketWalk) -> Void,
                     onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        lock.lock()
        defer { lock.unlock() }
        guard !opened else { throw .alreadyOpen }
        let name = controllerName
        let descriptor = cbluez_hci_socket()
        guard descriptor >= 0 else {
            throw HCITransportError(errno: errno, operation: "open an HCI socket", controller: name)
        }
        if channel == .raw, cbluez_hci_set_event_acl_filter(descriptor) != 0 {
            let code = errno
            Glibc.close(descriptor)
            throw HCITransportError(errno: code, operation: "set the HCI filter on \(name)", controller: name)
        }
        guard cbluez_hci_bind(descriptor, controller, channel.rawValue) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw HCITransportError(errno: code, operation: "bind \(name) (\(channel))", controller: name)
        }
        opened = true
        let reader = DescriptorChannel(descriptor: descriptor, queue: queue, operation: "\(name) (\(channel))", datagrams: true)
        descriptorChannel = reader
        reader.start(onChunk: { datagram in
            // One packet per read: indicator then bytes. Unknown indicators (e.g. vendor diagnostics) are skipped.
            if let first = datagram.first, let type = HCIPacketType(rawValue: first) {
                onPackets { body in _ = body(type, datagram.dropFirst()); return 0 }
            }
            return nil
        }, onEnd: { error in
            // An HCI socket has no other end that could close it: EPIPE (or end of file) means the controller went.
            onClose(error == .closed ? .controllerDown : error)
        })
        if channel == .user {
            // A removed controller marks this socket with EPIPE, reported as POLLERR alone (seen in the VM); the
            // channel's reader reads it and ends, and the management channel's Index Removed says the same, whichever
            // comes first.
            let index = controller
            removalWatch = try? ManagementSocket(queue: queue, onEvent: { [weak reader] result in
                guard case .success(let event) = result, event.index == index, event.kind == .indexRemoved else { return }
                reader?.finish(.controllerDown)
            }, onEnd: { _ in })
        }
    }

    /// Writes `packet` (indicator then bytes) as one datagram. Throws ``HCITransportError/notOpen``,
    /// ``HCITransportError/permissionDenied(operation:)`` (raw channel without CAP_NET_RAW) or the mapped error.
    public func send(_ packet: HCIPacket) throws(HCITransportError) {
        lock.lock()
        let reader = descriptorChannel
        lock.unlock()
        guard let reader else { throw .notOpen }
        try reader.write(packet.h4Bytes)
    }

    /// True while the datagram being handed over is part of a backlog (``HCITransport/isBehind``); on the transport's queue.
    public var isBehind: Bool {
        lock.lock()
        let reader = descriptorChannel
        lock.unlock()
        return reader?.isBehind ?? false
    }

    /// True while the last read turn left datagrams unread (``HCITransport/hasUnreadInput``); on the transport's queue.
    public var hasUnreadInput: Bool {
        lock.lock()
        let reader = descriptorChannel
        lock.unlock()
        return reader?.hasUnreadInput ?? false
    }

    /// True while the last read turn left datagrams unread or a datagram came since (``HCITransport/hasInputWaiting``);
    /// on the transport's queue.
    public var hasInputWaiting: Bool {
        lock.lock()
        let reader = descriptorChannel
        lock.unlock()
        return reader?.hasInputWaiting ?? false
    }

    /// Closes the socket; `onClose(nil)` follows on the queue.
    public func close() {
        lock.lock()
        let reader = descriptorChannel
        let watch = removalWatch
        removalWatch = nil
        lock.unlock()
        watch?.close()
        reader?.close()
    }
}
