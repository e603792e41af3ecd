// ACL data flow control: controller buffer credits, per-handle queues, credits returned by Number Of Completed Packets.

/// Host-to-controller ACL data flow control (Core v5.4 Vol 4 Part E §4.1), sans-I/O.
///
/// The controller buffers at most ``totalPackets`` ACL packets of at most ``maxDataLength`` data bytes each
/// (from LE Read Buffer Size, or Read Buffer Size when LE reports 0). The host sends a packet only while it
/// holds a credit; Number Of Completed Packets returns credits per handle; a disconnection returns the handle's
/// outstanding credits and drops its queue (Vol 4 Part E §4.3). Queued packets go out round-robin across handles.
/// Fragmenting PDUs to ``maxDataLength`` is L2CAP's job; this type only refuses packets that are too long.
public struct ACLFlow: Sendable {
    /// Why a packet was refused.
    public enum Error: Swift.Error, Hashable, Sendable {
        /// The packet's data is longer than the controller's buffer (``maxDataLength``).
        case packetTooLong(length: Int, maximum: Int)
    }

    /// Largest data length per ACL packet, bytes (LE_ACL_Data_Packet_Length).
    public let maxDataLength: Int
    /// Packets the controller can hold (Total_Num_LE_ACL_Data_Packets).
    public let totalPackets: Int
    /// Credits in hand: packets that may be sent now.
    public private(set) var availableCredits: Int
    private var outstanding: [ConnectionHandle: Int] = [:]
    private var queues: [ConnectionHandle: [HCIACLDataPacket]] = [:]
    private var order: [ConnectionHandle] = []

    /// Makes the flow from explicit buffer sizes (negative values count as 0).
    public init(maxDataLength: Int, totalPackets: Int) {
        self.maxDataLength = max(0, maxDataLength)
        self.totalPackets = max(0, totalPackets)
        availableCredits = max(0, totalPackets)
    }

    /// Makes the flow from LE Read Buffer Size, falling back to Read Buffer Size when LE reports a zero length or count
    /// (Vol 4 Part E §7.8.2); nil when neither gives a usable buffer.
    public init?(leBufferSize: LEBufferSize, sharedBufferSize: HCIReadBufferSize.ReturnParameters?) {
        if leBufferSize.leACLDataPacketLength > 0, leBufferSize.totalNumLEACLDataPackets > 0 {
            self.init(maxDataLength: Int(leBufferSize.leACLDataPacketLength), totalPackets: Int(leBufferSize.totalNumLEACLDataPackets))
        } else if let shared = sharedBufferSize, shared.aclDataPacketLength > 0, shared.totalNumACLDataPackets > 0 {
            self.init(maxDataLength: Int(shared.aclDataPacketLength), totalPackets: Int(shared.totalNumACLDataPackets))
        } else {
            return nil
        }
    }

    /// Packets sent on `handle` that the controller has not yet reported complete.
    public func outstanding(handle: ConnectionHandle) -> Int { outstanding[handle] ?? 0 }
    /// Packets waiting for credit, all handles.
    public var queuedCount: Int { queues.values.reduce(0) { $0 + $1.count } }
    /// Packets waiting for credit on `handle`.
    public func queuedCount(handle: ConnectionHandle) -> Int { queues[handle]?.count ?? 0 }

    /// Queues a packet. Throws ``Error/packetTooLong(length:maximum:)`` when its data exceeds ``maxDataLength``.
    public mutating func enqueue(_ packet: HCIACLDataPacket) throws(ACLFlow.Error) {
        guard packet.data.count <= maxDataLength else { throw .packetTooLong(length: packet.data.count, maximum: maxDataLength) }
        let handle = packet.handle
        if queues[handle] == nil { order.append(handle) }
        queues[handle, default: []].append(packet)
    }

    /// Takes the packets that credits allow, one handle at a time in turn, and counts them outstanding.
    public mutating func nextPacketsToSend() -> [HCIACLDataPacket] {
        var packets: [HCIACLDataPacket] = []
        while availableCredits > 0, !order.isEmpty {
            let handle = order.removeFirst()
            // Taken in place: copying the queue out of the dictionary would copy every waiting packet per send.
            guard let packet = queues[handle]?.first else {
                queues[handle] = nil
                continue
            }
            queues[handle]?.removeFirst()
            packets.append(packet)
            availableCredits -= 1
            outstanding[handle, default: 0] += 1
            if queues[handle]?.isEmpty ?? true {
                queues[handle] = nil
            } else {
                order.append(handle)
            }
        }
        return packets
    }

    /// Returns credits from Number Of Completed Packets. Counts above a handle's outstanding packets (a confused
    /// controller, or a handle already closed) are ignored so credits never exceed ``totalPackets``; returns how
    /// many were ignored.
    @discardableResult
    public mutating func handle(_ event: HCINumberOfCompletedPacketsEvent) -> Int {
        var ignored = 0
        for entry in event.entries {
            let handle = entry.handle
            let owed = outstanding[handle] ?? 0
            let returned = min(owed, Int(entry.completedPackets))
            ignored += Int(entry.completedPackets) - returned
            outstanding[handle] = owed - returned == 0 ? nil : owed - returned
            availableCredits = min(totalPackets, availableCredits + returned)
        }
        return ignored
    }

    /// Forgets a closed connection: its outstanding credits come back and its queued packets are dropped
    /// (Vol 4 Part E §4.3). Returns the dropped packets.
    @discardableResult
    public mutating func connectionClosed(handle: ConnectionHandle) -> [HCIACLDataPacket] {
        availableCredits = min(totalPackets, availableCredits + (outstanding[handle] ?? 0))
        outstanding[handle] = nil
        let dropped = queues[handle] ?? []
        queues[handle] = nil
        order.removeAll { $0 == handle }
        return dropped
    }

    /// Applies the events that change ACL credits: Number Of Completed Packets, and Disconnection Complete with
    /// Status 0x00 (see ``connectionClosed(handle:)``). Other events are ignored.
    public mutating func handle(_ event: HCIEvent) {
        switch event {
        case .numberOfCompletedPackets(let completed): handle(completed)
        case .disconnectionComplete(let disconnection) where disconnection.status.isSuccess: connectionClosed(handle: disconnection.handle)
        default: break
        }
    }
}
