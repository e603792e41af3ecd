// What a capture tells: its advertisers, connections, the GATT databases it reveals and the traffic per attribute.

import OCBAdvertising
import OCBCore
import OCBATT
import OCBHCI

/// One advertiser seen in a capture, its reports merged (Core v5.4 Vol 3 Part C §11).
public struct StoryAdvertiser: Hashable, Sendable {
    /// The advertiser's address.
    public var address: BluetoothAddress
    /// Its address type as reported.
    public var addressType: AddressType
    /// How many reports came from it (extended chains count once, reassembled).
    public var reportCount: Int
    /// The last RSSI reported, dBm.
    public var rssi: Int8?
    /// The last advertising data (not a scan response), nil if only scan responses came.
    public var advertisingData: [UInt8]?
    /// The last scan response data, if any.
    public var scanResponse: [UInt8]?
    /// Every local name seen (complete or shortened), in order of first appearance.
    public var names: [String]
    /// True if any of its advertisements was connectable.
    public var isConnectable: Bool
    /// True if it used extended (non-legacy) advertising PDUs.
    public var isExtended: Bool
    /// Time of the first and last report, microseconds since 1970.
    public var firstSeen: Int64
    /// See ``firstSeen``.
    public var lastSeen: Int64

    /// The last advertising data and scan response as one view.
    public var merged: MergedAdvertisement {
        MergedAdvertisement(advertisingData: AdvertisingData(bytes: advertisingData ?? []),
                            scanResponse: scanResponse.map { AdvertisingData(bytes: $0) })
    }

    /// The snapshot the advertiser formatter prints (name: the merged one, else the last seen).
    public var snapshot: AdvertiserSnapshot {
        var snapshot = AdvertiserSnapshot(address: address, addressType: addressType, rssi: rssi.map(Int.init),
                                          isConnectable: isConnectable, advertisement: merged)
        if snapshot.name == nil { snapshot.name = names.last }
        return snapshot
    }
}

/// One LE connection in a capture: from LE (Enhanced) Connection Complete to Disconnection Complete.
public struct StoryConnection: Hashable, Sendable {
    /// 1-based number in order of appearance.
    public var number: Int
    /// The connection handle (0x0000-0x0EFF).
    public var handle: ConnectionHandle
    /// The peer's address, nil when the capture never announced the connection.
    public var peerAddress: BluetoothAddress?
    /// The peer's address type.
    public var peerAddressType: AddressType?
    /// True when this host was the central (Role 0x00), nil when unknown.
    public var isCentral: Bool?
    /// When the connection completed, microseconds since 1970 (the first ACL packet for unannounced ones).
    public var connectedAt: Int64
    /// When Disconnection Complete came, nil if never.
    public var disconnectedAt: Int64?
    /// The disconnection reason (Core v5.4 Vol 1 Part F), nil if never disconnected.
    public var reason: HCIErrorCode?
    /// False when the capture holds no connection event for it (ACL traffic only).
    public var isAnnounced: Bool
    /// ATT PDUs seen on it, both ways.
    public var attPDUCount: Int
    /// The ATT_MTU each Exchange MTU on it left, in order: the smaller of the Client Rx MTU and the Server Rx MTU, at
    /// least 23 (Core v5.4 Vol 3 Part F §3.4.2); at most ``maximumMTUExchanges`` kept.
    public var mtuExchanges: [Int] = []
    /// The most Exchange MTU results kept per connection (a client sends one; a capture is hostile input).
    public static let maximumMTUExchanges = 64
    /// The ATT_MTU the last exchange left; nil when the capture shows none (ATT_MTU is then 23).
    public var attMTU: Int? { mtuExchanges.last }
    /// Its ATT PDUs by opcode byte, sent by this host and received from the peer.
    public var sentOpcodes: [UInt8: Int] = [:]
    /// See ``sentOpcodes``.
    public var receivedOpcodes: [UInt8: Int] = [:]
    /// Its Error Responses (§3.4.1.1), one entry per direction, request opcode, handle and error, with how many
    /// came, in the order first seen; at most ``StoryATTError/maximumDistinct`` distinct ones (then counted as a problem).
    public var attErrors: [StoryATTError] = []

    /// The key of the peer whose database this connection reveals: the address, else "handle 0x0040".
    public var peerKey: String { peerAddress?.description ?? "handle \(GATTText.handle(handle.rawValue))" }
}

/// One kind of Error Response on a connection (Core v5.4 Vol 3 Part F §3.4.1.1) and how often it came.
public struct StoryATTError: Hashable, Sendable {
    /// The most distinct kinds kept per connection (a capture is hostile input).
    public static let maximumDistinct = 256
    /// `.received`: the peer refused a request of this host; `.sent`: this host refused the peer's.
    public var direction: CaptureDirection
    /// Request Opcode In Error.
    public var requestOpcode: ATTOpcode
    /// Attribute Handle In Error.
    public var handle: AttributeHandle
    /// Error Code.
    public var error: ATTError
    /// How many such Error Responses.
    public var count: Int
}

/// How often each operation touched one attribute (by handle) of a peer.
public struct AttributeCounter: Hashable, Sendable {
    /// The attribute handle (a characteristic value handle or a descriptor).
    public var handle: AttributeHandle
    /// Read Requests sent (Core v5.4 Vol 3 Part F §3.4.4.3).
    public var reads: Int = 0
    /// Read Blob Requests sent (§3.4.4.5), the continuation of long reads.
    public var readBlobs: Int = 0
    /// Write Requests sent (§3.4.5.1).
    public var writeRequests: Int = 0
    /// Write Commands sent (§3.4.5.3).
    public var writeCommands: Int = 0
    /// Notifications received (§3.4.7.1, and each value of a Multiple Handle Value Notification, §3.4.7.4).
    public var notifications: Int = 0
    /// Indications received (§3.4.7.2).
    public var indications: Int = 0
    /// Queued writes: the Prepare Write Requests (§3.4.6.1) of this handle that an Execute Write Request with flags
    /// 0x01 committed and the peer answered with an Execute Write Response (§3.4.6.3), counted once per execute (a
    /// long or reliable write of one value).
    public var queuedWrites: Int = 0

    /// Makes an empty counter.
    public init(handle: AttributeHandle) { self.handle = handle }

    /// Write Requests, Write Commands and queued writes.
    public var writes: Int { writeRequests + writeCommands + queuedWrites }
}

/// One peer's GATT database as the capture reveals it, and the traffic on its attributes.
public struct StoryPeer: Hashable, Sendable {
    /// The peer's key (address or "handle 0x…", see ``StoryConnection/peerKey``).
    public var key: String
    /// The connections to it, by number.
    public var connections: [Int]
    /// The services, characteristics and descriptors found, as a tree in handle order.
    public var services: [GATTTreeService]
    /// Characteristics found outside any known service range (the capture missed the service discovery).
    public var orphanCharacteristics: [GATTTreeCharacteristic]
    /// Descriptors found outside any known characteristic (the capture missed the characteristic discovery).
    public var orphanDescriptors: [GATTTreeDescriptor]
    /// Counters per attribute handle, in handle order.
    public var counters: [AttributeCounter]

    /// Every characteristic, in services first, then orphans.
    public var allCharacteristics: [GATTTreeCharacteristic] {
        services.flatMap(\.characteristics) + orphanCharacteristics
    }

    /// The characteristic whose value handle is `handle`, if known.
    public func characteristic(valueHandle handle: AttributeHandle) -> GATTTreeCharacteristic? {
        allCharacteristics.first { $0.valueHandle == handle }
    }

    /// "2A37 Heart Rate Measurement" for a characteristic value handle, the descriptor's name for a descriptor, nil if unknown.
    public func attributeName(_ handle: AttributeHandle) -> String? {
        if let characteristic = characteristic(valueHandle: handle) { return GATTText.uuid(characteristic.uuid) }
        if let descriptor = orphanDescriptors.first(where: { $0.handle == handle }) { return GATTText.uuid(descriptor.uuid) }
        for characteristic in allCharacteristics {
            if let descriptor = characteristic.descriptors.first(where: { $0.handle == handle }) {
                return GATTText.uuid(descriptor.uuid) + " of " + GATTText.uuid(characteristic.uuid)
            }
        }
        return nil
    }

    /// What the text traffic list shows after a handle: ``attributeName(_:)`` when the database names the attribute,
    /// else what the handle is known to be in parentheses: "(start of secondary service 0CB10100-…)" for a service
    /// declaration, "(include in service …)", "(declaration of characteristic 2A37 Heart Rate Measurement)", or
    /// "(unknown attribute)" (Core v5.4 Vol 3 Part G §3.1-§3.3: the declarations a database holds).
    public func attributeLabel(_ handle: AttributeHandle) -> String {
        if let name = attributeName(handle) { return name }
        if let service = services.first(where: { $0.startHandle == handle }) {
            return "(start of \(service.isPrimary ? "primary" : "secondary") service \(GATTText.uuid(service.uuid)))"
        }
        if let service = services.first(where: { $0.includes.contains { $0.handle == handle } }) {
            return "(include in service \(GATTText.uuid(service.uuid)))"
        }
        if let characteristic = allCharacteristics.first(where: { $0.declarationHandle == handle }) {
            return "(declaration of characteristic \(GATTText.uuid(characteristic.uuid)))"
        }
        return "(unknown attribute)"
    }
}

/// The story of one capture file.
public struct CaptureStory: Equatable, Sendable {
    /// The file format.
    public var format: CaptureFormat
    /// Records read.
    public var recordCount: Int
    /// Time of the first and last record, microseconds since 1970 (nil for an empty capture).
    public var firstTimestamp: Int64?
    /// See ``firstTimestamp``.
    public var lastTimestamp: Int64?
    /// Advertisers in order of first appearance.
    public var advertisers: [StoryAdvertiser]
    /// Connections in order of appearance.
    public var connections: [StoryConnection]
    /// Peers with a database or traffic, in order of first connection.
    public var peers: [StoryPeer]
    /// Problems met (malformed events, dropped L2CAP fragments, undecodable ATT PDUs), counted by kind.
    public var problems: [String: Int]
    /// Why reading stopped early (a truncated last record), nil if the file was read to its end.
    public var readError: CaptureError?
}
