// The kernel's ATT channel: an L2CAP SOCK_SEQPACKET socket on the LE fixed channel 4, one ATT PDU per read or write.

import OCBHCI
import OCBCore
@_implementationOnly import COCBBlueZ
import Dispatch
import Foundation
import Glibc

/// An ATT bearer through the Linux kernel's L2CAP (AF_BLUETOOTH, SOCK_SEQPACKET, BTPROTO_L2CAP):
/// the kernel makes the LE connection and carries the fixed ATT channel (CID 0x0004, Core v5.4 Vol 3 Part A §2.1).
///
/// Flow: ``connect(to:addressType:security:timeout:queue:onConnect:onPDU:onClose:)`` binds to the adapter
/// (l2_cid 4, its address type), sets BT_SECURITY, and connects non-blocking; `onConnect` gets the HCI
/// connection handle (L2CAP_CONNINFO) or the error (``HCITransportError/timedOut(operation:)`` after
/// `timeout`, ``HCITransportError/cancelled`` after ``cancel()``). Then each received ATT PDU goes to
/// `onPDU` whole, ``send(_:)`` writes one PDU, and `onClose` reports the end (nil after ``close()``).
/// All callbacks run on `queue`. Errors use the shared errno mapping: a kernel without Bluetooth throws
/// ``HCITransportError/noBluetoothSupport`` from connect.
public final class L2CAPSocket: @unchecked Sendable {
    /// The LE ATT fixed channel identifier.
    public static let attChannel: UInt16 = 0x0004

    /// The local adapter's address (00:00:00:00:00:00 = any adapter).
    public let adapterAddress: BluetoothAddress
    /// The local adapter's address type (public or random).
    public let adapterAddressType: AddressType
    private let lock = NSLock()
    private var descriptor: Int32 = -1
    private var connectSource: DispatchSourceWrite?
    private var onConnect: (@Sendable (Result<ConnectionHandle, HCITransportError>) -> Void)?
    private var channel: DescriptorChannel?
    private var started = false

    /// Makes an unconnected socket description for the adapter at `adapterAddress` (default: any).
    public init(adapterAddress: BluetoothAddress = .zero, adapterAddressType: AddressType = .public) {
        self.adapterAddress = adapterAddress
        self.adapterAddressType = adapterAddressType
    }

    /// The kernel's LE address type for `type`: BDADDR_LE_PUBLIC (1) or BDADDR_LE_RANDOM (2); nil for others.
    static func kernelAddressType(_ type: AddressType) -> UInt8? {
        switch type {
        case .public, .publicIdentity: 1
        case .random, .randomIdentity: 2
        case .other: nil
        }
    }

    /// The HCI connection handle once connected, else nil.
    public private(set) var connectionHandle: ConnectionHandle? {
        get { lock.lock(); defer { lock.unlock() }; return storedHandle }
        set { lock.lock(); storedHandle = newValue; lock.unlock() }
    }
    private var storedHandle: ConnectionHandle?

    /// Starts connecting the ATT channel to `peer`. Synchronous failures throw (``HCITransportError/noBluetoothSupport``,
    /// ``HCITransportError/permissionDenied(operation:)``, ``HCITransportError/alreadyOpen``,
    /// ``HCITransportError/invalidSpecification(_:)`` for an address type that is neither public nor random);
    /// later ones go to `onConnect`.
    public func connect(to peer: BluetoothAddress, addressType: AddressType, security: L2CAPSecurityLevel = .low,
                        timeout: Duration = .seconds(10), queue: DispatchQueue,
                        onConnect: @escaping @Sendable (Result<ConnectionHandle, HCITransportError>) -> Void,
                        onPDU: @escaping @Sendable ([UInt8]) -> Void,
                        onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        guard let peerType = Self.kernelAddressType(addressType),
              let localType = Self.kernelAddressType(adapterAddressType) else {
            throw .invalidSpecification("an LE address type must be public or random")
        }
        lock.lock()
        defer { lock.unlock() }
        guard !started else { throw .alreadyOpen }
        let operation = "connect ATT to \(peer)"
        let fd = cbluez_l2cap_socket()
        guard fd >= 0 else { throw HCITransportError(errno: errno, operation: "open an L2CAP socket") }
        func fail(_ what: String) -> HCITransportError {
            let code = errno
            Glibc.close(fd)
            return HCITransportError(errno: code, operation: what)
        }
        guard cbluez_l2cap_bind(fd, adapterAddress.littleEndianBytes, localType, Self.attChannel) == 0 else {
            throw fail("bind the L2CAP socket to \(adapterAddress)")
        }
        guard cbluez_set_security(fd, security.rawValue) == 0 else { throw fail("set BT_SECURITY") }
        if cbluez_l2cap_connect(fd, peer.littleEndianBytes, peerType, Self.attChannel) != 0, errno != EINPROGRESS {
            throw fail(operation)
        }
        started = true
        descriptor = fd
        self.onConnect = onConnect
        let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        connectSource = source
        source.setEventHandler { [self] in
            let pending = cbluez_socket_error(fd)
            finishConnect(pending == 0 ? nil : HCITransportError(errno: pending < 0 ? errno : pending, operation: operation),
                          queue: queue, onPDU: onPDU, onClose: onClose)
        }
        source.resume()
        let nanoseconds = timeout.components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let deadline = nanoseconds.overflow ? Int.max : Int(clamping: nanoseconds.partialValue)
        queue.asyncAfter(deadline: .now() + .nanoseconds(deadline)) { [self] in
            finishConnect(.timedOut(operation: operation), queue: queue, onPDU: onPDU, onClose: onClose)
        }
    }

    /// Ends the connect phase once: on success starts reading PDUs, on failure closes the socket.
    private func finishConnect(_ error: HCITransportError?, queue: DispatchQueue, onPDU: @escaping @Sendable ([UInt8]) -> Void,
                               onClose: @escaping @Sendable (HCITransportError?) -> Void) {
        lock.lock()
        guard let onConnect, let source = connectSource else { lock.unlock(); return }
        self.onConnect = nil
        connectSource = nil
        let fd = descriptor
        var outcome: Result<ConnectionHandle, HCITransportError>
        if let error {
            outcome = .failure(error)
        } else {
            var field: UInt16 = 0
            if cbluez_l2cap_connection_handle(fd, &field) == 0 {
                let handle = ConnectionHandle(field: field)
                outcome = .success(handle)
                storedHandle = handle
            } else {
                outcome = .failure(HCITransportError(errno: errno, operation: "read L2CAP_CONNINFO"))
            }
        }
        if case .success = outcome {
            let reader = DescriptorChannel(descriptor: fd, queue: queue, operation: "ATT socket", datagrams: true)
            channel = reader
            lock.unlock()
            // The write source must not own the descriptor: its cancel handler does nothing.
            source.cancel()
            reader.start(onChunk: { pdu in onPDU(pdu); return nil }, onEnd: onClose)
        } else {
            descriptor = -1
            lock.unlock()
            source.setCancelHandler { Glibc.close(fd) }
            source.cancel()
        }
        onConnect(outcome)
    }

    /// Cancels a connect in progress (`onConnect` gets ``HCITransportError/cancelled``) or closes a connected socket.
    public func cancel() {
        lock.lock()
        let connecting = connectSource != nil
        lock.unlock()
        if connecting {
            // Delivered through the source's queue so it cannot race the connect completing.
            connectQueueFinish(.cancelled)
        } else {
            close()
        }
    }

    private func connectQueueFinish(_ error: HCITransportError) {
        lock.lock()
        guard let onConnect, let source = connectSource else { lock.unlock(); return }
        self.onConnect = nil
        connectSource = nil
        let fd = descriptor
        descriptor = -1
        lock.unlock()
        source.setCancelHandler { Glibc.close(fd) }
        source.cancel()
        onConnect(.failure(error))
    }

    /// Raises (or sets) the link's security level while connected; the kernel starts pairing or encryption.
    /// Throws ``HCITransportError/notOpen`` when not connected, or the mapped setsockopt error.
    public func setSecurity(_ level: L2CAPSecurityLevel) throws(HCITransportError) {
        lock.lock()
        let reader = channel
        lock.unlock()
        guard let reader, reader.isOpen else { throw .notOpen }
        guard cbluez_set_security(reader.descriptor, level.rawValue) == 0 else {
            throw HCITransportError(errno: errno, operation: "set BT_SECURITY")
        }
    }

    /// The link's security as the kernel has it (getsockopt BT_SECURITY: the connection's level and key size); nil
    /// when not connected or the kernel does not say.
    public func security() -> (level: UInt8, keySize: UInt8)? {
        lock.lock()
        let reader = channel
        lock.unlock()
        guard let reader, reader.isOpen else { return nil }
        var level: UInt8 = 0, keySize: UInt8 = 0
        guard cbluez_get_security(reader.descriptor, &level, &keySize) == 0 else { return nil }
        return (level, keySize)
    }

    /// Calls `handler` on `queue` once the socket can be written: after ``setSecurity(_:)`` the kernel holds the
    /// channel until pairing or encryption ends (BT_CONFIG, no POLLOUT), then lets it write again. Returns a cancel
    /// function (also called after `handler`); nothing happens when not connected (`handler` is then never called).
    public func whenWritable(queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        lock.lock()
        let reader = channel
        lock.unlock()
        guard let reader, reader.isOpen else { return {} }
        nonisolated(unsafe) let source = DispatchSource.makeWriteSource(fileDescriptor: reader.descriptor, queue: queue)
        source.setEventHandler {
            source.cancel()
            handler()
        }
        source.resume()
        return { source.cancel() }  // DispatchSource.cancel is thread-safe
    }

    /// Sends one whole ATT PDU (one SEQPACKET write). Throws ``HCITransportError/notOpen`` or the mapped error.
    public func send(_ pdu: [UInt8]) throws(HCITransportError) {
        lock.lock()
        let reader = channel
        lock.unlock()
        guard let reader else { throw .notOpen }
        try reader.write(pdu)
    }

    /// Closes a connected socket (`onClose(nil)` follows on the queue) or cancels a connect in progress.
    public func close() {
        lock.lock()
        let reader = channel
        let connecting = connectSource != nil
        lock.unlock()
        if connecting { connectQueueFinish(.cancelled) }
        reader?.close()
    }
}
